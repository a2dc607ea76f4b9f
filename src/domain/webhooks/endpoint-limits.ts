/** An endpoint's own limits on POSTs started per second and in flight, across workers (activities/endpoint-limiter.ts). */

export const MIN_RATE_LIMIT_PER_S = 1;
export const MAX_RATE_LIMIT_PER_S = 1_000;
export const MIN_MAX_IN_FLIGHT = 1;
export const MAX_MAX_IN_FLIGHT = 100;

/** null: no such limit. */
export interface EndpointLimits {
  ratePerSecond: number | null;
  maxInFlight: number | null;
}

export function limitsOf(endpoint: { rate_limit_per_s?: number | null; max_in_flight?: number | null }): EndpointLimits | null {
  const ratePerSecond = endpoint.rate_limit_per_s ?? null;
  const maxInFlight = endpoint.max_in_flight ?? null;
  return ratePerSecond === null && maxInFlight === null ? null : { ratePerSecond, maxInFlight };
}

/** The one-second window a start at `nowMs` counts in (worker clocks are assumed in sync, as for every timer). */
export function rateWindowOf(nowMs: number): number {
  return Math.floor(nowMs / 1000);
}

/** An in-flight lease's life unless removed: past the longest POST (30 s send + 5 s DNS), so only a killed worker's leases lapse. */
export const IN_FLIGHT_LEASE_MS = 60_000;

/** Rate windows are kept this long past their second (only their `_id`s are ever read). */
export const RATE_WINDOW_RETENTION_MS = 60_000;

/** Why an attempt waits: named in its throttled failure's message. */
export type LimitRefusal = 'rate' | 'in-flight';

export function refusalMessage(refusal: LimitRefusal, limits: EndpointLimits): string {
  return refusal === 'rate'
    ? `already started ${limits.ratePerSecond} deliveries this second (rate_limit_per_s)`
    : `already has ${limits.maxInFlight} deliveries in flight (max_in_flight)`;
}

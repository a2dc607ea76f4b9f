/**
 * Endpoint health and auto-disable. How each fact changes the summary (a success ends a failing streak, enabling the
 * endpoint again starts its count afresh) is applied by the store as update operators (persistence/endpoint-health-log.ts),
 * so that concurrent writers each apply theirs.
 */

const HOUR_MS = 3_600_000;
/** "Last 24 h" is counted in whole UTC hours: the current hour and the 23 before it. */
export const HEALTH_WINDOW_HOURS = 24;
/** Default of ENDPOINT_AUTO_DISABLE_HOURS: 5 days. */
export const DEFAULT_AUTO_DISABLE_AFTER_MS = 5 * 24 * HOUR_MS;

/** Why an endpoint is disabled: by its owner, or by the platform because its deliveries kept failing. */
export const DISABLED_REASONS = ['manual', 'failing'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** A delivery (one round to one endpoint) ended, or the endpoint was re-enabled; a `key` is logged once. */
export type HealthFact =
  | { kind: 'delivery'; key: string; succeeded: boolean; at: Date }
  | { kind: 'enabled'; key: string; at: Date };

export interface HealthSummary {
  last_success_at: Date | null;
  last_failure_at: Date | null;
  /** Failed deliveries since the last success (or since the endpoint was enabled again). */
  consecutive_failures: number;
  /** When the first of those failures ended; null when there is none. */
  failing_since: Date | null;
  /** Deliveries ended per UTC hour (its start, ms since the epoch), for the hours of the last 24 h only (oldest first). */
  hours: Array<{ hour: number; succeeded: number; failed: number }>;
}

export const EMPTY_HEALTH: HealthSummary = Object.freeze({
  last_success_at: null,
  last_failure_at: null,
  consecutive_failures: 0,
  failing_since: null,
  hours: [],
}) as HealthSummary;

export const hourStartOf = (at: Date) => Math.floor(at.getTime() / HOUR_MS) * HOUR_MS;

/** Deliveries that ended in the current hour and the 23 before it, as seen at `now`. */
export function countLast24h(summary: HealthSummary, now: Date) {
  let succeeded_24h = 0;
  let failed_24h = 0;
  for (const h of summary.hours) {
    if (h.hour <= hourStartOf(now) - HEALTH_WINDOW_HOURS * HOUR_MS || h.hour > now.getTime()) continue;
    succeeded_24h += h.succeeded;
    failed_24h += h.failed;
  }
  return { succeeded_24h, failed_24h };
}

/** Disable when a failure ends a failing streak of at least `periodMs`; re-enabling starts a new streak (a whole new period). */
export function shouldDisableForFailures(summary: HealthSummary, at: Date, periodMs: number): boolean {
  if (summary.consecutive_failures === 0 || summary.failing_since === null) return false;
  return at.getTime() - summary.failing_since.getTime() >= periodMs;
}

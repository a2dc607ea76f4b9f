import { LRUCache } from 'lru-cache';
import { type Clock, systemClock } from '../src/domain/clock';
import { throttleFloorMs, ThrottledTurns } from '../src/domain/flow-control/throttled-turns';
import { IN_FLIGHT_LEASE_MS, RATE_WINDOW_RETENTION_MS, rateWindowOf, type EndpointLimits, type LimitRefusal } from '../src/domain/webhooks/endpoint-limits';
import type { EndpointInFlightLeases } from '../src/persistence/endpoint-in-flight-leases';
import type { EndpointRateTokens } from '../src/persistence/endpoint-rate-tokens';

/** Seconds an attempt tries to take a token in before it waits its turn (each second may end while its token is taken). */
const MAX_WINDOW_TRIES = 2;
/** No POST starts in a second's last part: it would reach the receiver in the next second and count beyond the rate there. */
export const LATE_IN_SECOND_MS = 200;
const isLate = (ms: number) => ms - rateWindowOf(ms) * 1000 >= 1000 - LATE_IN_SECOND_MS;

/** Endpoints with an in-flight limit whose POST durations this process remembers (for the pace their places free at). */
const DURATIONS_KEPT = 10_000;
/** Weight of the newest POST in an endpoint's mean duration. */
const DURATION_WEIGHT = 0.2;

/** Held in the store, so every worker counts the same POSTs: a lease first (given back if the rate refuses), a token last. */
export function createEndpointLimiter(deps: {
  rateTokens: Pick<EndpointRateTokens, 'take'>;
  leases: Pick<EndpointInFlightLeases, 'acquire' | 'release'>;
  clock?: Clock;
  sleep?: (ms: number) => Promise<void>;
}) {
  const clock = deps.clock ?? systemClock;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const release = (endpointId: string, leaseId: string) => deps.leases.release(endpointId, leaseId).catch(() => undefined /* lapses at its expiry */);
  const turns = new ThrottledTurns(() => clock().getTime());
  const meanDurationMs = new LRUCache<string, number>({ max: DURATIONS_KEPT });
  function waitOf(endpointId: string, limits: EndpointLimits, refused: LimitRefusal, delivery: string, tries: number, random: number): number {
    const now = clock().getTime();
    // Over the rate, the next second is the earliest turn, and `ratePerSecond` turns come each second.
    if (refused === 'rate') return turns.wait(endpointId, delivery, limits.ratePerSecond as number, (rateWindowOf(now) + 1) * 1000 - now, random);
    // Over max_in_flight, places free at max_in_flight per mean POST duration; none measured yet, the doubling back-off.
    const mean = meanDurationMs.get(endpointId);
    const perSecond = mean === undefined ? 0 : ((limits.maxInFlight as number) * 1000) / Math.max(1, mean);
    return turns.wait(endpointId, delivery, perSecond, throttleFloorMs(perSecond, tries, random), random);
  }
  /** A token of the POST's second, before its late part; one whose second ended or went late meanwhile is left unused. */
  async function takeToken(endpointId: string, perSecond: number): Promise<boolean> {
    for (let tries = 0; tries < MAX_WINDOW_TRIES; tries++) {
      let now = clock().getTime();
      if (isLate(now)) {
        await sleep((rateWindowOf(now) + 1) * 1000 - now);
        now = clock().getTime();
      }
      const window = rateWindowOf(now);
      const took = await deps.rateTokens.take(endpointId, perSecond, window, new Date((window + 1) * 1000 + RATE_WINDOW_RETENTION_MS));
      if (!took) return false;
      const after = clock().getTime();
      if (rateWindowOf(after) === window && !isLate(after)) return true;
    }
    return false;
  }
  return {
    /** `leave` ends the POST's place; refused: which limit, and the wait before asking again. `delivery` and `tries` (its refusals so far) place it among this process's refused ones. */
    async enter(endpointId: string, limits: EndpointLimits, delivery: string, tries: number, random = Math.random()): Promise<{ leave: () => Promise<void> } | { refused: LimitRefusal; waitMs: number }> {
      const refuse = (refused: LimitRefusal) => ({ refused, waitMs: waitOf(endpointId, limits, refused, delivery, tries, random) });
      let leaseId: string | null = null;
      if (limits.maxInFlight !== null) {
        const now = clock();
        leaseId = await deps.leases.acquire(endpointId, limits.maxInFlight, now, new Date(now.getTime() + IN_FLIGHT_LEASE_MS));
        if (leaseId === null) return refuse('in-flight');
      }
      const lease = leaseId;
      if (limits.ratePerSecond !== null) {
        let took = false;
        try {
          took = await takeToken(endpointId, limits.ratePerSecond);
        } finally {
          if (!took && lease !== null) await release(endpointId, lease);
        }
        if (!took) return refuse('rate');
      }
      turns.served(endpointId, delivery);
      if (lease === null) return { leave: async () => undefined };
      const startedAt = clock().getTime();
      return {
        leave: async () => {
          const tookMs = clock().getTime() - startedAt;
          const mean = meanDurationMs.get(endpointId);
          meanDurationMs.set(endpointId, mean === undefined ? tookMs : mean + DURATION_WEIGHT * (tookMs - mean));
          await release(endpointId, lease);
        },
      };
    },
  };
}

export type EndpointLimiter = ReturnType<typeof createEndpointLimiter>;

import { type Clock, systemClock } from '../src/domain/clock';
import { IN_FLIGHT_LEASE_MS, RATE_WINDOW_RETENTION_MS, rateWindowOf, type EndpointLimits, type LimitRefusal } from '../src/domain/webhooks/endpoint-limits';
import type { EndpointInFlightLeases } from '../src/persistence/endpoint-in-flight-leases';
import type { EndpointRateTokens } from '../src/persistence/endpoint-rate-tokens';

/** Ends the POST's place (its lease, if it took one); a failed removal leaves the lease to lapse. */
export type LeaveLimits = () => Promise<void>;

export interface EndpointLimiterDeps {
  rateTokens: Pick<EndpointRateTokens, 'take'>;
  leases: Pick<EndpointInFlightLeases, 'acquire' | 'release'>;
  clock?: Clock;
}

/**
 * An endpoint's limits, held in the store so that every worker process counts the same POSTs: an
 * in-flight lease first (given back if the rate then refuses), a start token last, so that a token
 * is spent only on a POST that starts. Only an endpoint with limits reaches here.
 */
export function createEndpointLimiter(deps: EndpointLimiterDeps) {
  const clock = deps.clock ?? systemClock;
  const release = (leaseId: string) => deps.leases.release(leaseId).catch(() => undefined /* lapses at its expiry */);
  return {
    async enter(endpointId: string, limits: EndpointLimits): Promise<{ leave: LeaveLimits } | { refused: LimitRefusal }> {
      let leaseId: string | null = null;
      if (limits.maxInFlight !== null) {
        const now = clock();
        leaseId = await deps.leases.acquire(endpointId, limits.maxInFlight, now, new Date(now.getTime() + IN_FLIGHT_LEASE_MS));
        if (leaseId === null) return { refused: 'in-flight' };
      }
      const lease = leaseId;
      if (limits.ratePerSecond !== null) {
        const now = clock().getTime();
        const window = rateWindowOf(now);
        let took = false;
        try {
          took = await deps.rateTokens.take(endpointId, limits.ratePerSecond, window, new Date((window + 1) * 1000 + RATE_WINDOW_RETENTION_MS));
        } finally {
          if (!took && lease !== null) await release(lease);
        }
        if (!took) return { refused: 'rate' };
      }
      return { leave: async () => (lease === null ? undefined : release(lease)) };
    },
  };
}

export type EndpointLimiter = ReturnType<typeof createEndpointLimiter>;

import type { CacheLifetime } from '../persistence/cache-invalidation-follower';
import type { Invalidation } from '../persistence/cache-invalidations';
import type { EndpointDoc, Endpoints } from '../persistence/endpoints';
import { PerAccountCache } from './per-account-cache';

export { MAX_CACHED_ACCOUNTS } from './per-account-cache';

/** A cached list's life, unless `lifetime` trusts it longer; changes made here invalidate it at once. */
export const ENDPOINTS_CACHE_TTL_MS = 1_000;
const OWN_LIFETIME = { ttlMs: ENDPOINTS_CACHE_TTL_MS, maxStaleMs: ENDPOINTS_CACHE_TTL_MS };

/** One list query per uncached account, so an ingest's store round trips stay three (docs/delivery.md). */
export class AccountEndpointsCache {
  private readonly lists: PerAccountCache<EndpointDoc[]>;

  constructor(deps: { endpoints: Endpoints; now: () => number; lifetime: CacheLifetime }) {
    this.lists = new PerAccountCache({ read: (accountId) => deps.endpoints.listEnabled(accountId), droppedBy: 'endpoints_changed', own: OWN_LIFETIME, now: deps.now, lifetime: deps.lifetime });
  }

  enabled(accountId: string): Promise<EndpointDoc[]> {
    return this.lists.get(accountId);
  }

  clear(): void {
    this.lists.clear();
  }

  apply(invalidation: Invalidation): void {
    this.lists.apply(invalidation);
  }
}

import type { CacheLifetime } from '../persistence/cache-invalidation-follower';
import type { Invalidation } from '../persistence/cache-invalidations';
import type { EndpointDoc, Endpoints } from '../persistence/endpoints';

/**
 * How long an ingest may use a cached list of an account's enabled endpoints, unless the store
 * says it may trust it longer (`lifetime`). Changes made through this process invalidate it at once.
 */
export const ENDPOINTS_CACHE_TTL_MS = 1_000;
export interface AccountEndpointsCacheDeps {
  endpoints: Endpoints;
  now?: () => number;
  /** How long a list may be served (persistence/cache-invalidation-follower.ts); without it, ENDPOINTS_CACHE_TTL_MS. */
  lifetime?: CacheLifetime;
}

/**
 * Every ingest needs the account's enabled endpoints: one list query per account when it is
 * not cached, so that an ingest's store round trips stay three (docs/delivery.md "Store budget").
 */
export class AccountEndpointsCache {
  private readonly entries = new Map<string, { at: number; endpoints: Promise<EndpointDoc[]> }>();
  private readonly now: () => number;

  constructor(private readonly deps: AccountEndpointsCacheDeps) {
    this.now = deps.now ?? Date.now;
  }

  enabled(accountId: string): Promise<EndpointDoc[]> {
    const hit = this.entries.get(accountId);
    const now = this.now();
    if (hit && now - hit.at < this.ttlMs(now)) return hit.endpoints;
    if (this.entries.size > 10_000) this.entries.clear();
    const endpoints = this.deps.endpoints.listEnabled(accountId);
    const entry = { at: now, endpoints };
    this.entries.set(accountId, entry);
    endpoints.catch(() => {
      if (this.entries.get(accountId) === entry) this.entries.delete(accountId);
    });
    return endpoints;
  }

  private ttlMs(now: number): number {
    const own = { ttlMs: ENDPOINTS_CACHE_TTL_MS, maxStaleMs: ENDPOINTS_CACHE_TTL_MS };
    return (this.deps.lifetime?.lifetime(now, own) ?? own).ttlMs;
  }

  /** Drops every list (the cache-invalidations follower starting afresh). */
  clear(): void {
    this.entries.clear();
  }

  invalidate(accountId: string): void {
    this.entries.delete(accountId);
  }

  /** One entry of the cache-invalidations log. */
  apply(invalidation: Invalidation): void {
    if (invalidation.kind === 'endpoints_changed') this.invalidate(invalidation.account_id);
  }
}

import { LRUCache } from 'lru-cache';
import type { CacheLifetime } from '../persistence/cache-invalidation-follower';
import type { Invalidation } from '../persistence/cache-invalidations';
import type { EndpointDoc, Endpoints } from '../persistence/endpoints';

/** A cached list's life, unless `lifetime` trusts it longer; changes made here invalidate it at once. */
export const ENDPOINTS_CACHE_TTL_MS = 1_000;
const OWN_LIFETIME = { ttlMs: ENDPOINTS_CACHE_TTL_MS, maxStaleMs: ENDPOINTS_CACHE_TTL_MS };
/** Accounts whose lists a process remembers; past it the least recently used goes, so busy accounts stay cached. */
export const MAX_CACHED_ACCOUNTS = 10_000;

interface Entry {
  at: number;
  endpoints: Promise<EndpointDoc[]>;
}

/** One list query per uncached account, so an ingest's store round trips stay three (docs/delivery.md). */
export class AccountEndpointsCache {
  private readonly entries = new LRUCache<string, Entry>({ max: MAX_CACHED_ACCOUNTS });

  constructor(private readonly deps: { endpoints: Endpoints; now: () => number; lifetime: CacheLifetime }) {}

  enabled(accountId: string): Promise<EndpointDoc[]> {
    const hit = this.entries.get(accountId);
    const now = this.deps.now();
    if (hit && now - hit.at < this.deps.lifetime(now, OWN_LIFETIME).ttlMs) return hit.endpoints;
    const endpoints = this.deps.endpoints.listEnabled(accountId);
    const entry = { at: now, endpoints };
    this.entries.set(accountId, entry);
    endpoints.catch(() => {
      if (this.entries.get(accountId) === entry) this.entries.delete(accountId);
    });
    return endpoints;
  }

  clear(): void {
    this.entries.clear();
  }

  apply(invalidation: Invalidation): void {
    if (invalidation.kind === 'endpoints_changed') this.entries.delete(invalidation.account_id);
  }
}

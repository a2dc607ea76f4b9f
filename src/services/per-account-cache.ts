import { LRUCache } from 'lru-cache';
import type { CacheLifetime } from '../persistence/cache-invalidation-follower';
import type { Invalidation } from '../persistence/cache-invalidations';

/** Accounts a cache remembers; past it the least recently used goes, so busy accounts stay cached. */
export const MAX_CACHED_ACCOUNTS = 10_000;

interface Entry<T> {
  at: number;
  value: Promise<T>;
}

/**
 * One value per account, read once per lifetime (`own`, unless `lifetime` trusts it longer) and shared by the calls that
 * want it meanwhile; a failed read is not kept. An invalidation of kind `droppedBy` drops the account's value.
 */
export class PerAccountCache<T> {
  private readonly entries = new LRUCache<string, Entry<T>>({ max: MAX_CACHED_ACCOUNTS });

  constructor(
    private readonly deps: {
      read: (accountId: string) => Promise<T>;
      droppedBy: Extract<Invalidation, { account_id: string }>['kind'];
      own: { ttlMs: number; maxStaleMs: number };
      now: () => number;
      lifetime: CacheLifetime;
    },
  ) {}

  get(accountId: string): Promise<T> {
    const hit = this.entries.get(accountId);
    const now = this.deps.now();
    if (hit && now - hit.at < this.deps.lifetime(now, this.deps.own).ttlMs) return hit.value;
    const value = this.deps.read(accountId);
    const entry = { at: now, value };
    this.entries.set(accountId, entry);
    value.catch(() => {
      if (this.entries.get(accountId) === entry) this.entries.delete(accountId);
    });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }

  apply(invalidation: Invalidation): void {
    if (invalidation.kind === this.deps.droppedBy) this.entries.delete(invalidation.account_id);
  }
}

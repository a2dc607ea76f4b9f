import type { AccountDoc, Accounts } from '../persistence/accounts';
import type { CacheLifetime } from '../persistence/cache-invalidation-follower';
import type { Invalidation } from '../persistence/cache-invalidations';
import { KEY_CACHE_TTL_MS } from './key-authenticator';
import { PerAccountCache } from './per-account-cache';

/** Trusted as long as a cached key's copy of its account is (a tier change elsewhere applies as fast), unless `lifetime` says longer. */
const OWN_LIFETIME = { ttlMs: KEY_CACHE_TTL_MS, maxStaleMs: KEY_CACHE_TTL_MS };

/**
 * Accounts by id for the calls that come without an API key (portal sessions): one store read per account per lifetime, as
 * the key cache reads a key's account. A tier change (tier_set, here at once, elsewhere through the log) drops the account.
 */
export class AccountCache {
  private readonly accounts: PerAccountCache<AccountDoc | null>;

  constructor(deps: { accounts: Pick<Accounts, 'findById'>; now: () => number; lifetime: CacheLifetime }) {
    this.accounts = new PerAccountCache({ read: (accountId) => deps.accounts.findById(accountId), droppedBy: 'tier_set', own: OWN_LIFETIME, now: deps.now, lifetime: deps.lifetime });
  }

  findById(accountId: string): Promise<AccountDoc | null> {
    return this.accounts.get(accountId);
  }

  clear(): void {
    this.accounts.clear();
  }

  apply(invalidation: Invalidation): void {
    this.accounts.apply(invalidation);
  }
}

import type { AccountDoc, Accounts } from '../../../src/persistence/accounts';
import { lifetimeOf } from '../../../src/persistence/cache-invalidation-follower';
import { AccountCache } from '../../../src/services/account-cache';
import { KEY_CACHE_TTL_MS } from '../../../src/services/key-authenticator';

/** The account cache portal sessions' calls use: one read per account per lifetime; a tier change drops the account at once. */
describe('AccountCache', () => {
  function setup() {
    let now = 1_000_000;
    let tier = 'starter';
    const reads: string[] = [];
    let failNext = false;
    const accounts: Pick<Accounts, 'findById'> = {
      findById: async (id: string) => {
        reads.push(id);
        if (failNext) {
          failNext = false;
          throw new Error('store down');
        }
        return { _id: id, tier } as AccountDoc;
      },
    };
    const cache = new AccountCache({ accounts, now: () => now, lifetime: lifetimeOf({ coveredSince: () => null }) });
    return { cache, reads, advance: (ms: number) => (now += ms), setTier: (t: string) => (tier = t), failNext: () => (failNext = true) };
  }

  it('reads an account once per lifetime, the key cache’s own', async () => {
    const { cache, reads, advance } = setup();
    await cache.findById('acct_1');
    advance(KEY_CACHE_TTL_MS - 1);
    await cache.findById('acct_1');
    await cache.findById('acct_2');
    expect(reads).toEqual(['acct_1', 'acct_2']);
    advance(1);
    await cache.findById('acct_1');
    expect(reads).toEqual(['acct_1', 'acct_2', 'acct_1']);
  });

  it('drops an account whose tier is set, and only it; clear drops all', async () => {
    const { cache, reads, setTier } = setup();
    await cache.findById('acct_1');
    await cache.findById('acct_2');
    setTier('growth');
    cache.apply({ kind: 'tier_set', account_id: 'acct_1' });
    cache.apply({ kind: 'endpoints_changed', account_id: 'acct_2' });
    expect((await cache.findById('acct_1'))?.tier).toBe('growth');
    expect((await cache.findById('acct_2'))?.tier).toBe('starter');
    cache.clear();
    await cache.findById('acct_2');
    expect(reads).toEqual(['acct_1', 'acct_2', 'acct_1', 'acct_2']);
  });

  it('keeps no failed read', async () => {
    const { cache, reads, failNext } = setup();
    failNext();
    await expect(cache.findById('acct_1')).rejects.toThrow('store down');
    expect((await cache.findById('acct_1'))?._id).toBe('acct_1');
    expect(reads).toEqual(['acct_1', 'acct_1']);
  });
});

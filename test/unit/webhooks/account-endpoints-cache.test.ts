import type { EndpointDoc, Endpoints } from '../../../src/persistence/endpoints';
import { FOLLOWED_TTL_MS, lifetimeOf } from '../../../src/persistence/cache-invalidation-follower';
import { answerGate } from '../../support/gate';
import { AccountEndpointsCache, ENDPOINTS_CACHE_TTL_MS, MAX_CACHED_ACCOUNTS } from '../../../src/services/account-endpoints-cache';

function setup(options: { followed: boolean }) {
  let now = 1_000_000;
  let covered: number | null = null;
  const reads: string[] = [];
  const gate = answerGate();
  const endpoints = {
    listEnabled: async (accountId: string) => {
      reads.push(accountId);
      const answer = [{ _id: `ep_${reads.length}`, account_id: accountId } as EndpointDoc];
      await gate.passed(); // read now, answered later
      return answer;
    },
  } as unknown as Endpoints;
  const cache = new AccountEndpointsCache({ endpoints, now: () => now, lifetime: lifetimeOf({ coveredSince: () => (options.followed ? covered : null) }) });
  return {
    cache,
    reads,
    advance: (ms: number) => (now += ms),
    poll: () => (covered = now),
    /** Holds every list read until the returned function is called. */
    hold: gate.hold,
  };
}

describe('AccountEndpointsCache', () => {
  it('reads an account’s endpoints once per TTL when the invalidations log is not followed', async () => {
    const { cache, reads, advance } = setup({ followed: false });
    await cache.enabled('acct_1');
    advance(ENDPOINTS_CACHE_TTL_MS - 1);
    await cache.enabled('acct_1');
    expect(reads).toEqual(['acct_1']);
    advance(1);
    await cache.enabled('acct_1');
    expect(reads).toEqual(['acct_1', 'acct_1']);
  });

  it('keeps the list while the log is followed, and drops it when the log names the account', async () => {
    const { cache, reads, advance, poll } = setup({ followed: true });
    poll();
    await cache.enabled('acct_1');
    await cache.enabled('acct_2');
    for (let t = 0; t < 10_000; t += 200) {
      advance(200);
      poll();
      await cache.enabled('acct_1');
    }
    expect(reads).toEqual(['acct_1', 'acct_2']);
    cache.apply({ kind: 'endpoints_changed', account_id: 'acct_1' });
    cache.apply({ kind: 'key_revoked', key_hash: 'h' });
    expect((await cache.enabled('acct_1'))[0]._id).toBe('ep_3');
    await cache.enabled('acct_2');
    expect(reads).toEqual(['acct_1', 'acct_2', 'acct_1']);
  });

  it('a list read before an invalidation arrives is not kept: the next ingest reads again', async () => {
    const { cache, reads, poll, hold } = setup({ followed: true });
    poll();
    const release = hold();
    const running = cache.enabled('acct_1'); // reads the list before the change
    cache.apply({ kind: 'endpoints_changed', account_id: 'acct_1' });
    release();
    expect((await running)[0]._id).toBe('ep_1'); // an ingest concurrent with the change may use the old list...
    expect((await cache.enabled('acct_1'))[0]._id).toBe('ep_2'); // ...the next one may not
    expect(reads).toEqual(['acct_1', 'acct_1']);
  });

  it('reads again after FOLLOWED_TTL_MS even while followed (a change the log missed)', async () => {
    const { cache, reads, advance, poll } = setup({ followed: true });
    poll();
    await cache.enabled('acct_1');
    advance(FOLLOWED_TTL_MS);
    poll();
    await cache.enabled('acct_1');
    expect(reads).toEqual(['acct_1', 'acct_1']);
  });

  it('falls back to the short TTL when the log has not been read lately', async () => {
    const { cache, reads, advance, poll } = setup({ followed: true });
    poll();
    await cache.enabled('acct_1');
    advance(ENDPOINTS_CACHE_TTL_MS); // no poll since
    await cache.enabled('acct_1');
    expect(reads).toEqual(['acct_1', 'acct_1']);
  });

  it('past MAX_CACHED_ACCOUNTS forgets the least recently used accounts, not every list at once', async () => {
    const { cache, reads } = setup({ followed: false });
    await cache.enabled('acct_busy');
    for (let i = 0; i <= MAX_CACHED_ACCOUNTS; i++) {
      await cache.enabled(`acct_${i}`);
      if (i % 1_000 === 0) await cache.enabled('acct_busy');
    }
    await cache.enabled('acct_busy');
    expect(reads.filter((a) => a === 'acct_busy')).toHaveLength(1);
    await cache.enabled(`acct_${MAX_CACHED_ACCOUNTS}`);
    expect(reads.filter((a) => a === `acct_${MAX_CACHED_ACCOUNTS}`)).toHaveLength(1);
    await cache.enabled('acct_0'); // the least recently used went
    expect(reads.filter((a) => a === 'acct_0')).toHaveLength(2);
  });
});

import type { CommandStartedEvent } from 'mongodb';
import type { Platform } from '../../src/main/platform';
import { fakeClock } from '../support/fake-clock';
import { apiClient, createAccountWithKey, invalidationsReadFrom, startTestPlatform } from '../support/platform';

/**
 * CONTRACT §2: a revoked key is refused by every API process within 1 s. Each API process follows
 * the cache-invalidations log (one `_id` lookup every 200 ms) instead of re-reading every key it
 * caches twice a second, and every account's endpoint list every second; revocations, tier and
 * endpoint changes made by another process reach it there. The 1 s follows from the poll interval
 * and from how stale a poll may be before caches stop trusting the log (unit tests of the follower
 * and the caches); here, on the real store, a change made in one process reaches the other's
 * caches by its next poll. The caches of `here` age on a clock the test moves, so an entry never
 * expires on its own while the test waits: only the log can drop it.
 */
describe('keys and endpoint lists cached across processes, kept current by the cache-invalidations log', () => {
  let here: Platform;
  let elsewhere: Platform;
  const clock = fakeClock(Date.now());

  beforeAll(async () => {
    here = await startTestPlatform({ roles: { api: true, worker: false }, clock: clock.now });
    elsewhere = await startTestPlatform({ sameAs: here, roles: { api: true, worker: false } });
  });
  afterAll(async () => {
    await elsewhere?.stop();
    await here?.stop();
  });

  /** Moves `here`'s clock on by `ms`, then waits for a poll that began after: the log stays followed, and what was logged before has reached `here`. */
  const later = async (ms: number) => invalidationsReadFrom(here, clock.advance(ms));

  it('a key in use is not read from the store again while the log is followed', async () => {
    const { key } = await createAccountWithKey(here, { tier: 'enterprise' });
    const api = apiClient(here, key);
    expect((await api.get('/api/v1/webhooks/endpoints')).status).toBe(200);
    const reads: string[] = [];
    const count = (e: CommandStartedEvent) => {
      const collection = String((e.command as Record<string, unknown>)[e.commandName]);
      if (collection === 'api_keys' || collection === 'accounts') reads.push(`${e.commandName} ${collection}`);
    };
    here.mongo.on('commandStarted', count);
    try {
      for (let i = 0; i < 25; i++) {
        await later(100);
        expect((await api.get('/api/v1/webhooks/endpoints')).status).toBe(200);
      }
    } finally {
      here.mongo.off('commandStarted', count);
    }
    // 2.5 s of calls; without the log, a key and an account read every 0.5 s.
    expect(reads).toEqual([]);
  });

  it('ingests here route to an endpoint created, and stop routing to one disabled, in another process once this one has read the log', async () => {
    const { key, accountId } = await createAccountWithKey(here);
    const api = apiClient(here, key);
    const destinations = async () => {
      const res = await api.post('/api/v1/webhooks/events', { type: 'order.paid', data: {} });
      expect(res.status).toBe(202);
      return res.body.destinations as number;
    };
    expect(await destinations()).toBe(0); // the account's (empty) endpoint list is cached here
    for (let i = 0; i < 12; i++) {
      await later(100);
      expect(await destinations()).toBe(0); // kept past its own 1 s while the log is followed
    }
    const created = await elsewhere.services.endpoints.create(accountId, { url: 'https://127.0.0.1:1/hook' });
    await later(1);
    expect(await destinations()).toBe(1);

    await elsewhere.services.endpoints.update(accountId, created.id, { disabled: true });
    await later(1);
    expect(await destinations()).toBe(0);
  });

  it('a key cached here for more than 1 s and revoked in another process is refused here once this one has read the log', async () => {
    const { key, keyId } = await createAccountWithKey(here);
    const api = apiClient(here, key);
    expect((await api.get('/api/v1/webhooks/endpoints')).status).toBe(200);
    for (let i = 0; i < 12; i++) {
      await later(100);
      expect((await api.get('/api/v1/webhooks/endpoints')).status).toBe(200);
    }
    await elsewhere.services.accounts.revokeKey(keyId);
    await later(1);
    const refused = await api.get('/api/v1/webhooks/endpoints');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'revoked_api_key' });
  });

  it('a tier set in another process applies here, once this one has read the log, to a key cached for more than 1 s', async () => {
    const { key, accountId } = await createAccountWithKey(here, { tier: 'free' });
    const api = apiClient(here, key);
    expect((await api.get('/api/v1/webhooks/endpoints')).headers.get('x-quota-limit')).toBe('500');
    for (let i = 0; i < 12; i++) {
      await later(100);
      expect((await api.get('/api/v1/webhooks/endpoints')).headers.get('x-quota-limit')).toBe('500');
    }
    await elsewhere.services.accounts.setTier(accountId, 'enterprise');
    await later(1);
    expect((await api.get('/api/v1/webhooks/endpoints')).headers.get('x-quota-limit')).toBe('unlimited');
  });
});

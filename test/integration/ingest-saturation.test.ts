import type { CommandStartedEvent } from 'mongodb';
import type { Platform } from '../../src/main/platform';
import { holdMethod } from '../support/gate';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';

/**
 * When an API process holds INGEST_BACKLOG_LIMIT accepted events not yet handed to Temporal, or its
 * oldest has waited MAX_BACKLOG_S, it sheds ingests with 503.
 */

/** More reads of the workers' loads than a late account's share takes to reach its floor, or to grow back from it (lag-shares.ts). */
const STEPS_TO_LIMIT = 40;
describe('ingest under saturation', () => {
  let platform: Platform;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    platform = await startTestPlatform({ env: { INGEST_BACKLOG_LIMIT: '2' } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  });

  it('answers 503 with Retry-After and a JSON error, stores nothing, and accepts again once the backlog drains', async () => {
    const api = apiClient(platform, (await createAccountWithKey(platform)).key);
    await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/saturated` });
    // Temporal does not take workflow starts for now: accepted events stay in the backlog.
    const starts = holdMethod(platform.services.scheduler, 'start', { times: Infinity });
    try {
      const accepted = [
        await api.post('/api/v1/webhooks/events', { type: 'sat.one', data: {} }),
        await api.post('/api/v1/webhooks/events', { type: 'sat.two', data: {} }),
      ];
      expect(accepted.map((r) => r.status)).toEqual([202, 202]);
      const shed = await api.post('/api/v1/webhooks/events', { type: 'sat.three', data: {}, idempotency_key: 'sat-3' });
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('1');
      expect(shed.body).toMatchObject({ code: 'overloaded', retry_after: 1, error: expect.stringContaining('at capacity') });
      const listed = (await api.get('/api/v1/webhooks/events')).body.data.map((e: { type: string }) => e.type);
      expect(listed).toEqual(['sat.two', 'sat.one']);

      starts.open();
      for (const r of accepted) {
        await eventually(async () => (await api.get(`/api/v1/webhooks/events/${r.body.id}`)).body.status === 'delivered' || undefined);
      }
      // The same key, repeated after Retry-After, is a new event: the shed call stored nothing.
      const again = await api.post('/api/v1/webhooks/events', { type: 'sat.three', data: {}, idempotency_key: 'sat-3' });
      expect(again.status).toBe(202);
    } finally {
      starts.open();
      starts.restore();
    }
  });

  it('sheds before any store round trip, a repeat of an accepted key included', async () => {
    const api = apiClient(platform, (await createAccountWithKey(platform)).key);
    await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/saturated-again` });
    const starts = holdMethod(platform.services.scheduler, 'start', { times: Infinity });
    const commands: string[] = [];
    const count = (e: CommandStartedEvent) => {
      const collection = String((e.command as Record<string, unknown>)[e.commandName]);
      if (collection === 'events' || collection === 'idempotency_records') commands.push(`${e.commandName} ${collection}`);
    };
    try {
      const first = await api.post('/api/v1/webhooks/events', { type: 'sat.a', data: {}, idempotency_key: 'sat-a' });
      await api.post('/api/v1/webhooks/events', { type: 'sat.b', data: {} });
      expect(first.status).toBe(202);
      platform.mongo.on('commandStarted', count);
      const repeat = await api.post('/api/v1/webhooks/events', { type: 'sat.a', data: {}, idempotency_key: 'sat-a' });
      const fresh = await api.post('/api/v1/webhooks/events', { type: 'sat.c', data: {}, idempotency_key: 'sat-c' });
      platform.mongo.off('commandStarted', count);
      expect([repeat.status, fresh.status]).toEqual([503, 503]);
      expect(commands).toEqual([]);

      starts.open();
      await eventually(async () => (await api.get(`/api/v1/webhooks/events/${first.body.id}`)).body.status === 'delivered' || undefined);
      const after = await api.post('/api/v1/webhooks/events', { type: 'sat.a', data: {}, idempotency_key: 'sat-a' });
      expect(after.status).toBe(200);
      expect(after.body.id).toBe(first.body.id);
    } finally {
      platform.mongo.off('commandStarted', count);
      starts.open();
      starts.restore();
    }
  });

  it('sheds an ingest before it is metered or its body read: not counted, its limit headers as they stood', async () => {
    const api = apiClient(platform, (await createAccountWithKey(platform)).key);
    await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/saturated-unmetered` });
    const starts = holdMethod(platform.services.scheduler, 'start', { times: Infinity });
    try {
      await api.post('/api/v1/webhooks/events', { type: 'unmetered.a', data: {} });
      const last = await api.post('/api/v1/webhooks/events', { type: 'unmetered.b', data: {} });
      expect(last.status).toBe(202);
      // A body that would be refused 400 is not read: the call is shed first.
      const shed = await api.post('/api/v1/webhooks/events', { type: 42 });
      expect(shed.status).toBe(503);
      expect(shed.body).toMatchObject({ code: 'overloaded' });
      for (const header of ['x-ratelimit-remaining', 'x-ratelimit-reset', 'x-quota-used', 'x-quota-limit']) {
        expect(shed.headers.get(header)).toBe(last.headers.get(header));
      }
      starts.open();
      await eventually(async () => (platform.services.outbox.backlog === 0 ? true : undefined));
      const next = await api.get('/api/v1/webhooks/events');
      expect(Number(next.headers.get('x-quota-used'))).toBe(Number(last.headers.get('x-quota-used')) + 1);
    } finally {
      starts.open();
      starts.restore();
    }
  });

  it('refuses, in an API process without a worker, an account whose deliveries a worker publishes as falling behind, and takes another account\'s events', async () => {
    // As compose runs it: this process sees delivery only through what the workers publish.
    const apiOnly = await startTestPlatform({ roles: { api: true, worker: false } });
    const late = await createAccountWithKey(apiOnly);
    const lateApi = apiClient(apiOnly, late.key);
    const promptApi = apiClient(apiOnly, (await createAccountWithKey(apiOnly)).key);
    const loads = apiOnly.repositories.workerLoads;
    try {
      await loads.renew({ _id: 'worker_elsewhere', at: new Date(), lagging: [{ account_id: late.accountId, lag_ms: 5_000 }] });
      // Each read while the account stays late cuts its share; enough of them leave it at the floor,
      // where nearly every call is refused (the rest are let in, so its lag can still be measured).
      for (let i = 0; i < STEPS_TO_LIMIT; i++) await apiOnly.services.laggingAccounts?.refresh();
      let shed: { status: number; body: unknown } | undefined;
      for (let i = 0; i < 20 && shed?.status !== 503; i++) shed = await lateApi.post('/api/v1/webhooks/events', { type: 'lag.one', data: {} });
      expect(shed?.status).toBe(503);
      expect(shed?.body).toMatchObject({ code: 'overloaded', error: expect.stringContaining('over its share') });
      expect((await promptApi.post('/api/v1/webhooks/events', { type: 'lag.two', data: {} })).status).toBe(202);
      await loads.remove('worker_elsewhere');
      // Grown back by steps once no worker reports it, to all of its calls.
      for (let i = 0; i < STEPS_TO_LIMIT; i++) await apiOnly.services.laggingAccounts?.refresh();
      expect((await lateApi.post('/api/v1/webhooks/events', { type: 'lag.three', data: {} })).status).toBe(202);
    } finally {
      await loads.remove('worker_elsewhere');
      await apiOnly.stop();
    }
  });

  describe('with a backlog older than MAX_BACKLOG_S', () => {
    let young: Platform;
    beforeAll(async () => {
      young = await startTestPlatform({ env: { MAX_BACKLOG_S: '0.5' } });
    });
    afterAll(async () => {
      await young?.stop();
    });

    it("sheds an account's new events while its oldest accepted one waits to be started, and takes them again once it is", async () => {
      const account = await createAccountWithKey(young);
      const api = apiClient(young, account.key);
      await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/old-backlog` });
      const starts = holdMethod(young.services.scheduler, 'start', { times: Infinity });
      try {
        expect((await api.post('/api/v1/webhooks/events', { type: 'age.one', data: {} })).status).toBe(202);
        expect((await api.post('/api/v1/webhooks/events', { type: 'age.two', data: {} })).status).toBe(202);
        await eventually(async () => (young.services.outbox.accountWaitMs(account.accountId) > 500 ? true : undefined));
        const shed = await api.post('/api/v1/webhooks/events', { type: 'age.three', data: {} });
        expect(shed.status).toBe(503);
        expect(shed.body).toMatchObject({ code: 'overloaded', retry_after: 1, error: expect.stringContaining('over its share') });
        starts.open();
        await eventually(async () => (young.services.outbox.oldestWaitMs() === 0 ? true : undefined));
        expect((await api.post('/api/v1/webhooks/events', { type: 'age.four', data: {} })).status).toBe(202);
      } finally {
        starts.open();
        starts.restore();
      }
    });

    it("takes another account's events while one account's starts wait past MAX_BACKLOG_S", async () => {
      const flood = await createAccountWithKey(young);
      const floodApi = apiClient(young, flood.key);
      const quietApi = apiClient(young, (await createAccountWithKey(young)).key);
      await floodApi.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/flood` });
      await quietApi.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/quiet` });
      const starts = holdMethod(young.services.scheduler, 'start', { times: Infinity });
      try {
        for (const type of ['flood.one', 'flood.two']) expect((await floodApi.post('/api/v1/webhooks/events', { type, data: {} })).status).toBe(202);
        await eventually(async () => (young.services.outbox.accountWaitMs(flood.accountId) > 500 ? true : undefined));
        expect((await floodApi.post('/api/v1/webhooks/events', { type: 'flood.three', data: {} })).status).toBe(503);
        expect((await quietApi.post('/api/v1/webhooks/events', { type: 'quiet.one', data: {} })).status).toBe(202);
      } finally {
        starts.open();
        starts.restore();
      }
    });
  });
});

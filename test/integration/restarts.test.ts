import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { freePort, startTemporalDevServer } from '../../src/infra/embedded-servers';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import type { Platform } from '../../src/main/platform';
import { ownerTag } from '../../src/persistence/events';
import { roleEnv, spawnRole } from '../support/child-role';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { isUpdateOf, startStoreProxy } from '../support/store-proxy';
import { sendEventAccepted } from '../support/send-event';

/**
 * Nothing accepted is lost and no attempt is skipped or doubled when a process dies:
 * the retry schedule lives in Temporal timers, the events in MongoDB.
 */
describe('deliveries survive process crashes', () => {
  const receivers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function failingTwice() {
    const receiver = await startReceiver((_req, i) => (i < 2 ? { status: 500 } : { status: 200 }));
    receivers.push(receiver);
    return receiver;
  }

  async function attemptsOf(api: ReturnType<typeof apiClient>, id: number) {
    return (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0];
  }

  it('a worker killed while a delivery sleeps before attempt 3: a new worker makes attempt 3, once', async () => {
    const platform = await startTestPlatform({ roles: { api: true, worker: false } });
    try {
      const receiver = await failingTwice();
      const api = apiClient(platform, (await createAccountWithKey(platform)).key);
      await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/w` });
      const first = spawnRole('worker', roleEnv(platform));
      await first.waitFor(/Platform ready/);
      const id = (await sendEventAccepted(api, { type: 'a.b', data: {} })).body.id;
      await eventually(async () => (await attemptsOf(api, id)).attempt_count === 2 || undefined, 60_000);
      await first.crash();

      const second = spawnRole('worker', roleEnv(platform));
      try {
        await second.waitFor(/Platform ready/);
        const delivery = await eventually(async () => {
          const d = await attemptsOf(api, id);
          return d.status === 'succeeded' ? d : undefined;
        }, 60_000);
        expect(delivery.attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([
          [1, 500],
          [2, 500],
          [3, 200],
        ]);
        expect(receiver.received).toHaveLength(3);
        expect(receiver.received[2].at - receiver.received[1].at).toBeGreaterThanOrEqual(5000);
      } finally {
        await second.stop();
      }
    } finally {
      await platform.stop();
    }
  }, 180_000);

  it('the Temporal server killed with SIGKILL and restarted on its SQLite file: the sleeping delivery completes', async () => {
    const dataDir = await mkdtemp(path.join(process.env.TEST_DATA_DIR as string, 'temporal-kill-'));
    const port = await freePort();
    const start = () => startTemporalDevServer({ dataDir, port, uiPort: 0, headless: true });
    let temporal = await start();
    const platform = await startTestPlatform({ env: { TEMPORAL_ADDRESS: temporal.address } });
    try {
      const receiver = await failingTwice();
      const api = apiClient(platform, (await createAccountWithKey(platform)).key);
      await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/t` });
      const id = (await sendEventAccepted(api, { type: 'a.b', data: {} })).body.id;
      await eventually(async () => (await attemptsOf(api, id)).attempt_count === 2 || undefined, 60_000);

      temporal.kill();
      await temporal.stop();
      await new Promise((r) => setTimeout(r, 1000));
      temporal = await start();

      const delivery = await eventually(async () => {
        const d = await attemptsOf(api, id);
        return d.status === 'succeeded' ? d : undefined;
      }, 90_000);
      expect(delivery.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3]);
      expect(receiver.received).toHaveLength(3);
    } finally {
      await platform.stop();
      await temporal.stop();
    }
  }, 240_000);

  it('an attempt in flight on a worker that dies is made again by another worker after the workflow task time-out, not after the attempt time-out', async () => {
    const platform = await startTestPlatform({ roles: { api: true, worker: false } });
    try {
      // The first POST never gets an answer; the worker making it is killed meanwhile.
      const receiver = await startReceiver((_req, i) => (i === 0 ? 'hang' : { status: 200 }));
      receivers.push(receiver);
      const api = apiClient(platform, (await createAccountWithKey(platform)).key);
      await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/inflight` });
      const first = spawnRole('worker', roleEnv(platform));
      await first.waitFor(/Platform ready/);
      const second = spawnRole('worker', roleEnv(platform));
      try {
        await second.waitFor(/Platform ready/);
        const id = (await sendEventAccepted(api, { type: 'a.b', data: {} })).body.id;
        await eventually(async () => receiver.received.length === 1 || undefined, 20_000, 20);
        await first.crash();
        const killedAt = Date.now();
        // The attempt is a local activity that keeps its workflow task while the receiver does not
        // answer: the task times out (45 s, first-attempt-budget.ts) and another worker makes it
        // again, before the attempt's start-to-close time-out (90 s) would.
        await eventually(async () => receiver.received.length === 2 || undefined, 80_000, 50);
        const resumedAfterMs = receiver.received[1].at - killedAt;
        process.stderr.write(`[restarts] attempt resumed ${resumedAfterMs} ms after its worker was killed\n`);
        const delivery = await eventually(async () => {
          const d = await attemptsOf(api, id);
          return d.status === 'succeeded' ? d : undefined;
        }, 20_000);
        // The same attempt, made again: nothing was recorded for the lost POST.
        expect(delivery.attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([[1, 200]]);
      } finally {
        await second.stop();
        await first.stop();
      }
    } finally {
      await platform.stop();
    }
  }, 180_000);

  it('a worker killed after recording its attempt, before Temporal heard of it: the next worker answers from the record and does not post again', async () => {
    const platform = await startTestPlatform({ roles: { api: true, worker: false } });
    const store = new URL(platform.mongoUri);
    const proxy = await startStoreProxy({ host: store.hostname, port: Number(store.port) });
    try {
      // The first worker reaches its store through the proxy: once its attempt's record is written,
      // everything after it (the health fact, then the workflow task's completion) is held.
      const receiver = await startReceiver(() => {
        proxy.holdAfter(isUpdateOf('deliveries'));
        return { status: 200 };
      });
      receivers.push(receiver);
      const api = apiClient(platform, (await createAccountWithKey(platform)).key);
      const endpointId = (await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/recorded` })).body.id;
      const first = spawnRole('worker', { ...roleEnv(platform), MONGODB_URI: proxy.uri() });
      await first.waitFor(/Platform ready/);
      const id = (await sendEventAccepted(api, { type: 'a.b', data: {} })).body.id;
      await eventually(async () => proxy.holding || undefined, 20_000, 20);
      expect((await attemptsOf(api, id)).attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([[1, 200]]);
      await first.crash();

      const second = spawnRole('worker', roleEnv(platform));
      try {
        await second.waitFor(/Platform ready/);
        // The workflow task times out (45 s) and the second worker makes the attempt's task again.
        await eventually(async () => !(await platform.services.scheduler.isRunning(deliveryId(id, endpointId))) || undefined, 80_000, 200);
        expect(receiver.received).toHaveLength(1);
        expect((await attemptsOf(api, id)).status).toBe('succeeded');
      } finally {
        await second.stop();
      }
    } finally {
      await proxy.close();
      await platform.stop();
    }
  }, 180_000);

  it('an event stored but never dispatched (the API died in between) is dispatched by the next API process', async () => {
    const first = await startTestPlatform({ roles: { api: true, worker: false } });
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { accountId, key } = await createAccountWithKey(first);
    const endpoint = (await apiClient(first, key).post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/orphan` })).body;
    // Exactly the state a crash after `insert event` and before `start workflows` leaves behind:
    // an event of an API process whose lease has expired, in a batch above that lease's watermark.
    const deadInstance = 'api_dead_instance_of_this_test';
    await first.repositories.apiInstances.renew({
      _id: deadInstance,
      expires_at: new Date(Date.now() - 60_000),
      watermark: 0,
      batch: 1,
      started_at: new Date(Date.now() - 120_000),
      renewed_at: new Date(Date.now() - 75_000),
      host: 'gone',
      pid: 0,
    });
    const timestamp = Math.floor(Date.now() / 1000) - 60;
    const event = await first.repositories.events.insertWithNextId(
      {
        account_id: accountId,
        type: 'orphan.event',
        data: { lost: false },
        timestamp,
        idempotency_key: null,
        endpoint_ids: [endpoint.id],
        endpoint_urls: [endpoint.url],
        owner: ownerTag(deadInstance, 1),
        created_at: new Date(Date.now() - 60_000),
      },
      (id) => JSON.stringify({ id, type: 'orphan.event', data: { lost: false }, timestamp }),
    );
    await first.stop();

    const next = await startTestPlatform({ sameAs: first });
    try {
      const api = apiClient(next, key);
      const delivered = await eventually(async () => {
        const e = (await api.get(`/api/v1/webhooks/events/${event._id}`)).body;
        return e.status === 'delivered' ? e : undefined;
      });
      expect(delivered.deliveries[0]).toMatchObject({ status: 'succeeded', attempt_count: 1 });
      expect(receiver.received.filter((r) => r.path === '/orphan')).toHaveLength(1);
    } finally {
      await next.stop();
    }
  });

  it('an API process killed in the middle of a burst of ingests: every acknowledged event is delivered exactly once', async () => {
    const platform = await startTestPlatform();
    try {
      const receiver = await startReceiver();
      receivers.push(receiver);
      const { key } = await createAccountWithKey(platform);
      await apiClient(platform, key).post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/burst` });
      const child = spawnRole('api', roleEnv(platform));
      const url = (await child.waitFor(/API\s+(http:\/\/\S+)/))[1];
      const acknowledged: number[] = [];
      const sends = Array.from({ length: 60 }, (_, i) =>
        fetch(`${url}/api/v1/webhooks/events`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ type: 'burst.item', data: { i } }),
        })
          .then(async (res) => {
            if (res.status === 202) acknowledged.push(((await res.json()) as { id: number }).id);
          })
          .catch(() => undefined),
      );
      await eventually(async () => acknowledged.length >= 5 || undefined, 30_000, 5);
      await child.crash();
      await Promise.all(sends);

      const api = apiClient(platform, key);
      const storedIds = async () => (await platform.db.collection('events').find({ type: 'burst.item' }).toArray()).map((e) => Number(e._id));
      const stored = await storedIds();
      expect(stored).toEqual(expect.arrayContaining(acknowledged));
      // The running platform's sweep dispatches what the dead process left undispatched.
      await eventually(async () => {
        const statuses = await Promise.all((await storedIds()).map(async (id) => (await api.get(`/api/v1/webhooks/events/${id}`)).body.status));
        return statuses.every((s) => s === 'delivered') || undefined;
      }, 60_000);
      const remaining = await storedIds();
      const deliveredIds = receiver.received.map((r) => JSON.parse(r.rawBody).id as number);
      for (const id of acknowledged) expect(deliveredIds.filter((d) => d === id)).toHaveLength(1);
      for (const id of remaining) expect(deliveredIds.filter((d) => d === id)).toHaveLength(1);
      expect((await api.get(`/api/v1/webhooks/events/${acknowledged[0]}`)).body.status).toBe('delivered');
    } finally {
      await platform.stop();
    }
  }, 180_000);
});

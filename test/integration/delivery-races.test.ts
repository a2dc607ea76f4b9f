import { createLogger } from '../../src/infra/logger';
import type { Platform } from '../../src/main/platform';
import { CrashRecovery } from '../../src/services/crash-recovery';
import type { InstanceLease } from '../../src/services/instance-lease';
import { deliveryClosed } from '../support/delivery-workflows';
import { holdMethod } from '../support/gate';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { sendEventAccepted } from '../support/send-event';

/**
 * Races on the ingest and delivery path, each reproduced by holding one side at the racy
 * point (not by hoping for timing).
 */
describe('races on the ingest and delivery path', () => {
  let platform: Platform;
  const receivers: Array<{ close(): Promise<void> }> = [];
  const others: Platform[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    for (const p of others) await p.stop();
    await platform?.stop();
  });

  async function setUp(on: Platform = platform, endpoints = 1, respond: (i: number) => { status: number } = () => ({ status: 200 })) {
    const receiver = await startReceiver((_req, i) => respond(i));
    receivers.push(receiver);
    const { key, accountId } = await createAccountWithKey(on);
    const api = apiClient(on, key);
    const created = [];
    for (let i = 0; i < endpoints; i++) created.push((await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/hook-${i}` })).body);
    return { receiver, api, key, accountId, endpoints: created };
  }

  /** A crash-recovery sweep as another API process would make it, with its clock at `ms`. */
  const sweepOfAnotherProcessAt = (ms: number) =>
    new CrashRecovery({
      instances: platform.repositories.apiInstances,
      events: platform.repositories.events,
      idempotency: platform.repositories.idempotency,
      outbox: platform.services.outbox,
      self: { id: 'api_another_process' } as InstanceLease,
      logger: createLogger('silent'),
      clock: () => new Date(ms),
    }).sweep();

  it('crash recovery never takes over an ingest that is still alive, however long it is held between storing its event and claiming its key', async () => {
    const { receiver, api, accountId, endpoints } = await setUp();
    const gate = holdMethod(platform.repositories.idempotency, 'claim');
    try {
      const ingest = api.post('/api/v1/webhooks/events', { type: 'held.event', data: { n: 1 }, idempotency_key: 'held-live' });
      await gate.reached;
      // Held until the lease this process had then has run out, and the process has renewed it since.
      const lease = async () => (await platform.repositories.apiInstances.list()).find((l) => l._id === platform.services.lease.id);
      const ranOutAt = (await lease())!.expires_at.getTime();
      await eventually(async () => (Date.now() > ranOutAt && (await lease())!.expires_at.getTime() > ranOutAt + 1) || undefined, 60_000, 50);
      // Another API process sweeping just after that lease ran out finds nothing to take over.
      expect(await sweepOfAnotherProcessAt(ranOutAt + 1)).toBe(0);
      expect(await platform.repositories.idempotency.find({ issuer: 'account', accountId }, 'held-live')).toBeNull();
      gate.open();
      const res = await ingest;
      expect(res.status).toBe(202);
      const event = await eventually(async () => {
        const e = await api.get(`/api/v1/webhooks/events/${res.body.id}`);
        return e.status === 200 && e.body.status === 'delivered' ? e.body : undefined;
      });
      expect(event.id).toBe(res.body.id);
      expect(await deliveryClosed(platform.temporal, res.body.id, endpoints[0].id)).toBe('COMPLETED');
      expect(receiver.received.filter((r) => JSON.parse(r.rawBody).id === res.body.id)).toHaveLength(1);
    } finally {
      gate.restore();
    }
  });

  it('an ingest that stalled past its lease keeps its event when crash recovery claimed the key for it, and answers 202', async () => {
    const stalled = await startTestPlatform({ roles: { api: true, worker: false }, sameAs: platform });
    others.push(stalled);
    const { receiver, key, accountId, endpoints } = await setUp(stalled);
    const api = apiClient(stalled, key);
    const gate = holdMethod(stalled.repositories.idempotency, 'claim');
    const renewals = holdMethod(stalled.repositories.apiInstances, 'renew', { times: Infinity });
    try {
      const ingest = api.post('/api/v1/webhooks/events', { type: 'stalled.event', data: { n: 2 }, idempotency_key: 'held-stalled' });
      await gate.reached;
      // The stalled process's lease runs out (renewals are held too); another API process recovers its event.
      await eventually(async () => {
        await platform.services.recovery.sweep();
        return (await platform.repositories.idempotency.find({ issuer: 'account', accountId }, 'held-stalled')) ?? undefined;
      }, 15_000, 250);
      gate.open();
      renewals.open();
      const res = await ingest;
      expect(res.status).toBe(202);
      const got = await apiClient(platform, key).get(`/api/v1/webhooks/events/${res.body.id}`);
      expect(got.status).toBe(200);
      await eventually(async () => (await apiClient(platform, key).get(`/api/v1/webhooks/events/${res.body.id}`)).body.status === 'delivered' || undefined);
      // The event's first attempt came a lease's time after acceptance, so the workers may report the account
      // as late and admission refuse a share of its calls (503, nothing stored): the repeat is retried as a client would.
      const repeat = await eventually(async () => {
        const r = await api.post('/api/v1/webhooks/events', { type: 'stalled.event', data: { n: 2 }, idempotency_key: 'held-stalled' });
        return r.status === 503 && r.body.code === 'overloaded' ? undefined : r;
      }, 30_000, 500);
      expect(repeat.status).toBe(200);
      expect(repeat.body.id).toBe(res.body.id);
      expect(await deliveryClosed(platform.temporal, res.body.id, endpoints[0].id)).toBe('COMPLETED');
      expect(receiver.received.filter((r) => JSON.parse(r.rawBody).id === res.body.id)).toHaveLength(1);
    } finally {
      gate.restore();
      renewals.restore();
    }
  });

  it('a manual retry records the first attempt of its new round even when that attempt is made before the retry call returns', async () => {
    let failing = true;
    const { receiver, api, endpoints } = await setUp(platform, 1, () => (failing ? { status: 500 } : { status: 200 }));
    const [endpoint] = endpoints;
    const id = (await sendEventAccepted(api, { type: 'retry.race', data: {} })).body.id;
    await eventually(async () => (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0].status === 'retrying' || undefined);
    await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: true });
    await eventually(async () => (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0].status === 'cancelled' || undefined);
    await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: false });
    failing = false;
    const before = receiver.received.length;
    // Hold the round's write until the new round's first POST has arrived (or 3 s if it cannot arrive first).
    const gate = holdMethod(platform.repositories.deliveries, 'startRound', { maxHoldMs: 3_000 });
    const arrived = eventually(async () => receiver.received.length > before || undefined, 3_000, 20).catch(() => undefined);
    void arrived.then(() => gate.open());
    try {
      expect((await api.post(`/api/v1/webhooks/events/${id}/deliveries/${endpoint.id}/retry`)).status).toBe(202);
      const event = await eventually(async () => {
        const e = (await api.get(`/api/v1/webhooks/events/${id}`)).body;
        return e.deliveries[0].status === 'succeeded' ? e : undefined;
      }, 15_000);
      expect(event.deliveries[0]).toMatchObject({ round: 2, attempt_count: 1 });
      expect(event.deliveries[0].attempts.filter((a: any) => a.round === 2).map((a: any) => [a.attempt, a.status_code])).toEqual([[1, 200]]);
    } finally {
      gate.restore();
    }
  });

  it("an event's status never loses an update when its deliveries finish at the same moment", async () => {
    // No write of an event's status exists to lose: each delivery writes only its own record, and
    // the status is derived from all of them when read. Racy point: both POSTs are answered, the
    // first delivery's record is held while the second writes its own and its workflow ends.
    const { api, endpoints } = await setUp(platform, 2);
    const [first, second] = endpoints;
    const firstRecord = holdMethod(platform.repositories.deliveries, 'recordAttempt', { when: (ref) => ref.endpoint_id === first.id });
    const statusOf = async (id: number) => ({
      read: (await api.get(`/api/v1/webhooks/events/${id}`)).body.status,
      listedDelivered: (await api.get('/api/v1/webhooks/events?status=delivered')).body.data.some((e: any) => e.id === id),
      listedPending: (await api.get('/api/v1/webhooks/events?status=pending')).body.data.some((e: any) => e.id === id),
    });
    try {
      const id = (await sendEventAccepted(api, { type: 'fan.out', data: {} })).body.id;
      await firstRecord.reached;
      expect(await deliveryClosed(platform.temporal, id, second.id)).toBe('COMPLETED');
      // Read while the first record is in flight: still pending, everywhere.
      expect(await statusOf(id)).toEqual({ read: 'pending', listedDelivered: false, listedPending: true });
      firstRecord.open();
      expect(await deliveryClosed(platform.temporal, id, first.id)).toBe('COMPLETED');
      expect(await statusOf(id)).toEqual({ read: 'delivered', listedDelivered: true, listedPending: false });
    } finally {
      firstRecord.restore();
    }
  });
});

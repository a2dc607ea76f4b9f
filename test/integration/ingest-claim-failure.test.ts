import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import type { Platform } from '../../src/main/platform';
import type { IdempotencyRecords } from '../../src/persistence/idempotency-records';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';

/**
 * An ingest whose idempotency claim throws after the event was stored
 * (the claim landed, its answer was lost) must leave nothing behind that is not delivered:
 * the event answers its key and is delivered exactly once, also across a graceful restart.
 */
describe('an ingest whose idempotency claim lands but whose answer is lost', () => {
  const receivers: Array<{ close(): Promise<void> }> = [];
  const platforms: Platform[] = [];
  afterAll(async () => {
    for (const p of platforms) await p.stop().catch(() => undefined);
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function start(sameAs?: Platform) {
    const platform = await startTestPlatform(sameAs ? { sameAs } : {});
    platforms.push(platform);
    return platform;
  }

  async function subscribed(platform: Platform) {
    const receiver = await startReceiver(() => ({ status: 200 }));
    receivers.push(receiver);
    const { key } = await createAccountWithKey(platform);
    const api = apiClient(platform, key);
    const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/hook` })).body;
    return { receiver, key, endpointId: endpoint.id as string };
  }

  /** The first claim writes its record, then fails as if the store's reply were lost; `later` answers the calls after it. */
  function loseFirstClaimAnswer(idempotency: IdempotencyRecords, later?: () => Promise<never>) {
    const original = idempotency.claim.bind(idempotency);
    let calls = 0;
    idempotency.claim = async (...args) => {
      calls++;
      if (calls === 1) {
        await original(...args);
        throw new Error('connection reset before the reply');
      }
      return later ? later() : original(...args);
    };
    return { restore: () => (idempotency.claim = original) };
  }

  /** Waits until the delivery workflow exists and has closed: no later POST can come from it. */
  async function closed(platform: Platform, workflowId: string) {
    const handle = platform.temporal.workflow.getHandle(workflowId);
    await eventually(async () => (await handle.describe()).status.name !== 'RUNNING' || undefined, 30_000);
  }

  const postsFor = (receiver: { received: Array<{ rawBody: string }> }, id: number) => receiver.received.filter((r) => JSON.parse(r.rawBody).id === id).length;

  it('answers 503, its repeat answers 200 with the event, and the event is delivered exactly once, also across a graceful restart', async () => {
    const first = await start();
    const { receiver, key, endpointId } = await subscribed(first);
    const lost = loseFirstClaimAnswer(first.repositories.idempotency);
    const event = { type: 'claim.lost', data: { n: 1 }, idempotency_key: 'claim-lost-1' };
    let id: number;
    try {
      const ingest = await apiClient(first, key).post('/api/v1/webhooks/events', event);
      expect(ingest.status).toBe(503);
      expect(ingest.body.code).toBe('service_unavailable');
      const repeat = await apiClient(first, key).post('/api/v1/webhooks/events', event);
      expect(repeat.status).toBe(200);
      id = repeat.body.id;
    } finally {
      lost.restore();
    }
    await closed(first, deliveryId(id, endpointId));
    expect(postsFor(receiver, id)).toBe(1);

    await first.stop();
    const second = await start(first);
    await second.services.recovery.sweep();
    await closed(second, deliveryId(id, endpointId));
    expect(postsFor(receiver, id)).toBe(1);
    const repeat = await apiClient(second, key).post('/api/v1/webhooks/events', event);
    expect(repeat.status).toBe(200);
    expect(repeat.body.id).toBe(id);
  }, 90_000);

  it('a graceful stop before the event is settled keeps the lease, and the next process delivers the event exactly once', async () => {
    const first = await start();
    const { receiver, key, endpointId } = await subscribed(first);
    // The store stays unreachable for this process's later claims: the event cannot be settled before it stops.
    loseFirstClaimAnswer(first.repositories.idempotency, () => new Promise<never>(() => undefined));
    const event = { type: 'claim.lost', data: { n: 2 }, idempotency_key: 'claim-lost-2' };
    const ingest = await apiClient(first, key).post('/api/v1/webhooks/events', event);
    expect(ingest.status).toBe(503);
    await first.stop();

    const second = await start(first);
    const repeat = await apiClient(second, key).post('/api/v1/webhooks/events', event);
    expect(repeat.status).toBe(200);
    const id = repeat.body.id as number;
    // Crash recovery takes the stopped process's lease over once it expires, and hands the event over.
    await eventually(async () => (await second.temporal.workflow.getHandle(deliveryId(id, endpointId)).describe()) && true, 30_000);
    await closed(second, deliveryId(id, endpointId));
    expect(postsFor(receiver, id)).toBe(1);
  }, 90_000);
});

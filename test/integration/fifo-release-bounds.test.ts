import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import type { Platform } from '../../src/main/platform';
import { holdMethod } from '../support/gate';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';

/**
 * docs/fifo-endpoints.md "Controls": a switch to unordered wakes the queue from its head, each place
 * once at most: switching back and forth wakes only places taken since the last switch, and two
 * switches at once (one held after its read of the queue) wake each place once between them.
 * Wake-ups counted on the platform's scheduler, against the real store and Temporal.
 */
describe('ordering switches: each queued delivery is woken by a switch once at most', () => {
  let platform: Platform;
  const woken: string[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform();
    const scheduler = platform.services.scheduler;
    const wake = scheduler.wakeForTurn.bind(scheduler);
    scheduler.wakeForTurn = async (workflowId: string) => {
      woken.push(workflowId);
      await wake(workflowId);
    };
  });
  afterAll(async () => {
    await platform?.stop();
  });

  /** Wake-ups of one endpoint's deliveries: a queue deleted by an earlier test may still hand its turn on. */
  const wokenAt = (endpointId: string) => woken.filter((id) => id.endsWith(`-${endpointId}`));

  /** A FIFO endpoint nothing listens at: every attempt fails, so each delivery keeps its place while it retries. */
  async function failingQueue(count: number) {
    const api = apiClient(platform, (await createAccountWithKey(platform)).key);
    const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/hook', ordering: 'fifo' })).body;
    const path = `/api/v1/webhooks/endpoints/${endpoint.id}`;
    const ingest = async () => {
      const res = await api.post('/api/v1/webhooks/events', { type: 'order.created', data: {} });
      expect(res.status).toBe(202);
      return res.body.id as number;
    };
    const ids: number[] = [];
    for (let i = 0; i < count; i++) ids.push(await ingest());
    // The head has made its first attempt (and waits to retry): it holds the queue.
    await eventually(async () => ((await api.get(path)).body.fifo?.head_event_id === ids[0] ? true : undefined), 30_000);
    return { api, endpoint, path, ingest, ids };
  }

  it('wakes the head and those behind it on the first switch; back to fifo and unordered again wakes none of them, only a place taken since', async () => {
    woken.length = 0;
    const { api, endpoint, path, ingest, ids } = await failingQueue(3);

    expect((await api.patch(path, { ordering: 'unordered' })).status).toBe(200);
    expect(wokenAt(endpoint.id).sort()).toEqual(ids.map((id) => deliveryId(id, endpoint.id)).sort());

    woken.length = 0;
    for (let i = 0; i < 3; i++) {
      expect((await api.patch(path, { ordering: 'fifo' })).body.ordering).toBe('fifo');
      expect((await api.patch(path, { ordering: 'unordered' })).body.ordering).toBe('unordered');
    }
    expect(wokenAt(endpoint.id)).toEqual([]);

    expect((await api.patch(path, { ordering: 'fifo' })).status).toBe(200);
    const later = await ingest();
    expect((await api.patch(path, { ordering: 'unordered' })).status).toBe(200);
    expect(wokenAt(endpoint.id)).toEqual([deliveryId(later, endpoint.id)]);

    // Their retries end here (cancelled).
    expect((await api.delete(path)).status).toBe(204);
  }, 120_000);

  it('wakes each place once between two switches at once, one held after it has read the queue', async () => {
    woken.length = 0;
    const { api, endpoint, path, ingest, ids } = await failingQueue(3);
    expect((await api.patch(path, { ordering: 'unordered' })).status).toBe(200);
    expect(wokenAt(endpoint.id).sort()).toEqual(ids.map((id) => deliveryId(id, endpoint.id)).sort());
    expect((await api.patch(path, { ordering: 'fifo' })).status).toBe(200);
    const later = [await ingest(), await ingest()];

    woken.length = 0;
    const gate = holdMethod(platform.repositories.fifoQueues, 'markWoken', { when: (endpointId) => endpointId === endpoint.id });
    let held: Promise<void>;
    try {
      held = platform.services.fifo.release(endpoint.id);
      await gate.reached;
      await platform.services.fifo.release(endpoint.id);
    } finally {
      gate.open();
      gate.restore();
    }
    await held;
    expect(wokenAt(endpoint.id).sort()).toEqual(later.map((id) => deliveryId(id, endpoint.id)).sort());

    expect((await api.delete(path)).status).toBe(204);
  }, 120_000);
});

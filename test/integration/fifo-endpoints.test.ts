import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { WEBHOOK_DELIVERY_STATUS } from '../../src/temporal/search-attributes';
import { roleEnv, spawnRole } from '../support/child-role';
import { timerEnds, waitsBefore } from '../support/delivery-workflows';
import { apiClient, createAccountWithKey, eventually } from '../support/platform';
import { startReceiver, type ReceivedRequest, type Reply } from '../support/receiver';
import { receivingPlatform } from '../support/receiving-platform';

/**
 * FIFO endpoints, through real Temporal workflows to real HTTPS receivers, with two worker
 * processes sharing the work (and a second API process where places are taken at once): deliveries
 * arrive one at a time in ingest order, a failing one holds the queue while its retries run, and
 * GET shows the queue's head and length.
 */
describe('FIFO endpoints', () => {
  const fixture = receivingPlatform();
  const receivers: Array<{ close(): Promise<void> }> = [];
  beforeAll(async () => {
    await fixture.addWorker();
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  type Api = ReturnType<typeof apiClient>;
  const ENDPOINTS = '/api/v1/webhooks/endpoints';
  const eventIdOf = (r: ReceivedRequest) => Number(r.headers['webhook-id']);

  async function fifoEndpoint(respond: (req: ReceivedRequest, index: number) => Reply) {
    const receiver = await startReceiver(respond);
    receivers.push(receiver);
    const { key } = await createAccountWithKey(fixture.platform);
    const api = apiClient(fixture.platform, key);
    const created = await api.post(ENDPOINTS, { url: `${receiver.url}/hook`, ordering: 'fifo' });
    expect(created.status).toBe(201);
    return { receiver, api, key, endpoint: created.body };
  }

  /** One at a time, each acknowledged before the next is sent: this is ingest order. */
  async function ingest(api: Api, count: number): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await api.post('/api/v1/webhooks/events', { type: 'order.created', data: { i } });
      expect(res.status).toBe(202);
      ids.push(res.body.id);
    }
    return ids;
  }

  it('delivers 200 events in ingest order, each once, while the receiver fails the 50th twice (the queue waits for its retries)', async () => {
    let failuresOf50th = 0;
    let fiftieth: number | undefined;
    const { receiver, api } = await fifoEndpoint((req) => {
      if (eventIdOf(req) === fiftieth && failuresOf50th < 2) {
        failuresOf50th++;
        return { status: 503 };
      }
      return { status: 200 };
    });
    const ids = await ingest(api, 49);
    [fiftieth] = await ingest(api, 1);
    ids.push(fiftieth as number, ...(await ingest(api, 150)));

    await eventually(async () => receiver.received.length >= 202 || undefined, 300_000, 500);
    const arrived = receiver.received.map(eventIdOf);
    // The 50th three times in a row (two failures, then its success); every other once; nothing out of order.
    expect(arrived).toEqual([...ids.slice(0, 50), fiftieth, fiftieth, ...ids.slice(50)]);
    const delivery = (await api.get(`/api/v1/webhooks/events/${fiftieth}`)).body.deliveries[0];
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 3 });
  });

  it('shows ordering on every endpoint and, on GET of a FIFO one, the head of its queue and its length', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const { receiver, api, endpoint } = await fifoEndpoint((_req, index) => (index === 0 ? { status: 200, until: held } : { status: 200 }));
    expect(endpoint).toMatchObject({ ordering: 'fifo' });
    expect(endpoint.fifo).toBeUndefined();
    const ids = await ingest(api, 3);
    await eventually(async () => receiver.received.length === 1 || undefined, 60_000);
    expect((await api.get(`${ENDPOINTS}/${endpoint.id}`)).body.fifo).toEqual({ head_event_id: ids[0], length: 3 });
    release();
    await eventually(async () => receiver.received.length === 3 || undefined, 60_000);
    await eventually(async () => {
      const { fifo } = (await api.get(`${ENDPOINTS}/${endpoint.id}`)).body;
      return fifo.length === 0 ? fifo : undefined;
    }, 60_000);
    expect((await api.get(`${ENDPOINTS}/${endpoint.id}`)).body.fifo).toEqual({ head_event_id: null, length: 0 });
  });

  it('lets retry-now wake the failing head but not one waiting its turn; cancel of a later one removes it, cancel of the head frees the next', async () => {
    let failing: number | undefined;
    const { receiver, api, endpoint } = await fifoEndpoint((req, index) => {
      if (index === 0) failing = eventIdOf(req);
      return { status: eventIdOf(req) === failing ? 500 : 200 };
    });
    const [head, next, later] = (await ingest(api, 3)) as [number, number, number];
    const control = (eventId: number, action: 'retry-now' | 'cancel') => api.post(`/api/v1/webhooks/events/${eventId}/deliveries/${endpoint.id}/${action}`);
    const statusOf = async (eventId: number) => (await api.get(`/api/v1/webhooks/events/${eventId}`)).body.deliveries[0].status;
    // The head fails and waits 5 min before its attempt 5: the queue waits behind it.
    await eventually(() => waitsBefore(fixture.platform.temporal, deliveryId(head, endpoint.id), 5), 120_000);
    expect(failing).toBe(head);
    expect((await api.get(`${ENDPOINTS}/${endpoint.id}`)).body.fifo.head_event_id).toBe(head);

    const notWaiting = await control(next, 'retry-now');
    expect(notWaiting.status).toBe(409);
    expect(notWaiting.body.code).toBe('delivery_not_waiting');
    expect((await control(later, 'cancel')).status).toBe(202);
    await eventually(async () => (await statusOf(later)) === 'cancelled', 60_000);

    expect((await control(head, 'retry-now')).status).toBe(202);
    await eventually(() => waitsBefore(fixture.platform.temporal, deliveryId(head, endpoint.id), 6), 60_000);
    expect((await control(head, 'cancel')).status).toBe(202);
    await eventually(async () => (await statusOf(next)) === 'succeeded', 60_000);

    expect(receiver.received.map(eventIdOf)).toEqual([head, head, head, head, head, next]);
    expect(await statusOf(head)).toBe('cancelled');
    expect((await api.get(`${ENDPOINTS}/${endpoint.id}`)).body.fifo).toEqual({ head_event_id: null, length: 0 });
  }, 180_000);

  it('holds the queue while paused, and after the resume delivers in ingest order', async () => {
    const { receiver, api, endpoint } = await fifoEndpoint(() => ({ status: 200 }));
    expect((await api.post(`${ENDPOINTS}/${endpoint.id}/pause`)).status).toBe(200);
    const ids = await ingest(api, 5);
    const statuses = async () => Promise.all(ids.map(async (id) => (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0]));
    // The head waits paused; the others wait paused or their turn: none is sent.
    await eventually(async () => (await statuses()).some((d) => d.paused) || undefined, 60_000);
    expect(receiver.received).toHaveLength(0);
    expect((await api.post(`${ENDPOINTS}/${endpoint.id}/resume`)).status).toBe(200);
    await eventually(async () => receiver.received.length === 5 || undefined, 120_000);
    expect(receiver.received.map(eventIdOf)).toEqual(ids);
  });

  it('ends every delivery of its queue cancelled when it is disabled, the failing head first and each one behind it in turn', async () => {
    let failing: number | undefined;
    const { receiver, api, endpoint } = await fifoEndpoint((req, index) => {
      if (index === 0) failing = eventIdOf(req);
      return { status: eventIdOf(req) === failing ? 500 : 200 };
    });
    const ids = await ingest(api, 4);
    await eventually(() => waitsBefore(fixture.platform.temporal, deliveryId(ids[0] as number, endpoint.id), 3), 60_000);
    expect((await api.patch(`${ENDPOINTS}/${endpoint.id}`, { disabled: true })).status).toBe(200);
    for (const id of ids) {
      await eventually(async () => (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0].status === 'cancelled' || undefined, 60_000);
    }
    expect(new Set(receiver.received.map(eventIdOf))).toEqual(new Set([ids[0]]));
  });

  it('gives events ingested at once through two API processes distinct, gap-free places, and delivers them in that order, each once', async () => {
    const { receiver, api, endpoint, key } = await fifoEndpoint(() => ({ status: 200 }));
    const other = spawnRole('api', roleEnv(fixture.platform));
    try {
      const otherUrl = (await other.waitFor(/API\s+(http:\/\/\S+)/))[1];
      const viaOther = async (i: number) => {
        const res = await fetch(`${otherUrl}/api/v1/webhooks/events`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ type: 'order.created', data: { i } }),
        });
        expect(res.status).toBe(202);
        return ((await res.json()) as { id: number }).id;
      };
      const viaThis = async (i: number) => {
        const res = await api.post('/api/v1/webhooks/events', { type: 'order.created', data: { i } });
        expect(res.status).toBe(202);
        return res.body.id as number;
      };
      const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? viaThis(i) : viaOther(i))));
      const placeOf = async (eventId: number) => (await fixture.platform.repositories.events.findUnscoped(eventId))?.fifo_places?.[endpoint.id] as number;
      const places = new Map(await Promise.all(ids.map(async (id) => [id, await placeOf(id)] as const)));
      expect([...places.values()].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));

      await eventually(async () => receiver.received.length >= 40 || undefined, 180_000, 200);
      expect(receiver.received.map(eventIdOf)).toEqual([...ids].sort((a, b) => (places.get(a) as number) - (places.get(b) as number)));
      await eventually(async () => ((await api.get(`${ENDPOINTS}/${endpoint.id}`)).body.fifo.length === 0 ? true : undefined), 60_000);
    } finally {
      await other.stop();
    }
  }, 240_000);

  it('releases the deliveries waiting their turn when switched to unordered: woken, they go while the head still holds its POST', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const { receiver, api, endpoint } = await fifoEndpoint((_req, index) => (index === 0 ? { status: 200, until: held } : { status: 200 }));
    const [head, ...waiting] = (await ingest(api, 3)) as [number, ...number[]];
    const temporal = fixture.platform.temporal;
    const waitsItsTurn = async (eventId: number) =>
      (await temporal.workflow.getHandle(deliveryId(eventId, endpoint.id)).describe()).typedSearchAttributes.get(WEBHOOK_DELIVERY_STATUS) === 'queued' || undefined;
    try {
      await eventually(async () => receiver.received.length === 1 || undefined, 60_000);
      for (const eventId of waiting) await eventually(() => waitsItsTurn(eventId), 60_000);

      expect((await api.patch(`${ENDPOINTS}/${endpoint.id}`, { ordering: 'unordered' })).status).toBe(200);
      await eventually(async () => receiver.received.length === 3 || undefined, 120_000);
      expect(receiver.received.map(eventIdOf).sort()).toEqual([head, ...waiting].sort());
      // Woken by the switch, not by their re-look.
      for (const eventId of waiting) expect((await timerEnds(temporal, deliveryId(eventId, endpoint.id))).fired).toBe(0);
    } finally {
      release();
    }
    for (const eventId of [head, ...waiting]) {
      await eventually(async () => (await api.get(`/api/v1/webhooks/events/${eventId}`)).body.deliveries[0].status === 'succeeded' || undefined, 60_000);
    }
  });

  it('is unordered unless asked, and takes ordering on PATCH; any other value is a 400', async () => {
    const receiver = await fixture.receiver();
    const api = apiClient(fixture.platform, (await createAccountWithKey(fixture.platform)).key);
    const created = (await api.post(ENDPOINTS, { url: `${receiver.url}/hook` })).body;
    expect(created.ordering).toBe('unordered');
    const patched = await api.patch(`${ENDPOINTS}/${created.id}`, { ordering: 'fifo' });
    expect(patched.status).toBe(200);
    expect(patched.body.ordering).toBe('fifo');
    expect((await api.get(`${ENDPOINTS}/${created.id}`)).body.fifo).toEqual({ head_event_id: null, length: 0 });
    const refused = await api.patch(`${ENDPOINTS}/${created.id}`, { ordering: 'lifo' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_request', details: [expect.objectContaining({ path: 'ordering' })] });
  });
});

import { startArrivalLogReceiver } from '../support/arrival-log-receiver';
import { apiClient, createAccountWithKey, eventually } from '../support/platform';
import type { ReceivedRequest, Reply } from '../support/receiver';
import { receivingPlatform } from '../support/receiving-platform';

/**
 * An endpoint's own limits, through real Temporal workflows to real HTTPS receivers, with two worker
 * processes sharing the work: over a limit a delivery waits its turn, and every one arrives with a
 * single attempt (waiting is not an attempt).
 */
describe('per-endpoint delivery limits', () => {
  const fixture = receivingPlatform();
  beforeAll(async () => {
    await fixture.addWorker();
  });

  type Api = ReturnType<typeof apiClient>;
  const ENDPOINTS = '/api/v1/webhooks/endpoints';

  async function endpointAt(url: string, limits: Record<string, unknown>) {
    const api = apiClient(fixture.platform, (await createAccountWithKey(fixture.platform)).key);
    const created = await api.post(ENDPOINTS, { url: `${url}/hook`, ...limits });
    expect(created.status).toBe(201);
    return { api, endpoint: created.body };
  }

  async function endpointWith(limits: Record<string, unknown>, respond: (index: number) => Reply = () => ({ status: 200 })) {
    const receiver = await fixture.receiver(respond);
    return { receiver, ...(await endpointAt(receiver.url, limits)) };
  }

  async function ingest(api: Api, count: number): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await api.post('/api/v1/webhooks/events', { type: 'order.created', data: { i } });
      expect(res.body.destinations).toBe(1);
      ids.push(res.body.id);
    }
    return ids;
  }

  const eventIdsOf = (received: ReceivedRequest[]) => new Set(received.map((r) => Number(r.headers['webhook-id'])));

  /** Every delivery succeeded with one attempt: waiting for its turn used none. */
  async function expectEachDeliveredOnce(api: Api, ids: number[]): Promise<void> {
    for (const id of ids) {
      const delivery = await eventually(async () => {
        const d = (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0];
        return d?.status === 'succeeded' ? d : undefined;
      }, 60_000);
      expect(delivery).toMatchObject({ attempt_count: 1 });
      expect(delivery.attempts).toHaveLength(1);
    }
  }

  it('delivers every event of a burst of 100 to a `rate_limit_per_s: 5` endpoint, the receiver getting no more than 5 in any whole second', async () => {
    const receiver = await startArrivalLogReceiver();
    try {
      const { api, endpoint } = await endpointAt(receiver.url, { rate_limit_per_s: 5 });
      expect(endpoint).toMatchObject({ rate_limit_per_s: 5, max_in_flight: null });
      const ids = await ingest(api, 100);

      const arrived = () => new Set(receiver.arrivals.map((a) => a.id));
      await eventually(async () => arrived().size === 100, 300_000, 500);
      expect(arrived()).toEqual(new Set(ids));
      const perSecond = new Map<number, number>();
      for (const { at } of receiver.arrivals) perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
      expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(5);
      await expectEachDeliveredOnce(api, ids);
    } finally {
      receiver.stop();
    }
  }, 420_000);

  it('never has more than 2 requests open at a `max_in_flight: 2` endpoint whose receiver holds them, and delivers every event', async () => {
    const count = 12;
    let open = 0;
    let mostOpen = 0;
    const held: Array<() => void> = [];
    const { receiver, api } = await endpointWith({ max_in_flight: 2 }, () => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      const until = new Promise<void>((release) => held.push(release)).then(() => void (open -= 1));
      return { status: 200, until };
    });
    const ids = await ingest(api, count);

    // Held until two are open (or the last has come): whatever else is due meanwhile must wait.
    while (eventIdsOf(receiver.received).size < count || held.length > 0) {
      await eventually(async () => held.length === 2 || eventIdsOf(receiver.received).size === count, 180_000);
      held.splice(0).forEach((release) => release());
    }
    expect(eventIdsOf(receiver.received)).toEqual(new Set(ids));
    expect(mostOpen).toBe(2);
    await expectEachDeliveredOnce(api, ids);
  }, 420_000);

  it('shows the limits on the endpoint, changes them on PATCH and clears one with null', async () => {
    const { api, endpoint } = await endpointWith({ rate_limit_per_s: 10, max_in_flight: 3 });
    expect(endpoint).toMatchObject({ rate_limit_per_s: 10, max_in_flight: 3 });
    expect((await api.get(`${ENDPOINTS}/${endpoint.id}`)).body).toMatchObject({ rate_limit_per_s: 10, max_in_flight: 3 });

    const patched = await api.patch(`${ENDPOINTS}/${endpoint.id}`, { rate_limit_per_s: 1000, max_in_flight: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ rate_limit_per_s: 1000, max_in_flight: null });
    const untouched = await api.patch(`${ENDPOINTS}/${endpoint.id}`, { description: 'limits left as they are' });
    expect(untouched.body).toMatchObject({ rate_limit_per_s: 1000, max_in_flight: null });
    expect((await api.get(ENDPOINTS)).body.data[0]).toMatchObject({ id: endpoint.id, rate_limit_per_s: 1000, max_in_flight: null });
  });

  it('has no limits on an endpoint created without them', async () => {
    const { endpoint } = await endpointWith({});
    expect(endpoint).toMatchObject({ rate_limit_per_s: null, max_in_flight: null });
  });

  it.each([
    ['rate_limit_per_s', 0],
    ['rate_limit_per_s', 1001],
    ['rate_limit_per_s', 2.5],
    ['rate_limit_per_s', '5'],
    ['max_in_flight', 0],
    ['max_in_flight', 101],
    ['max_in_flight', -1],
  ])('refuses %s: %p with a 400 naming the field, on create and on PATCH, changing nothing', async (field, value) => {
    const { api, endpoint } = await endpointWith({ rate_limit_per_s: 5, max_in_flight: 2 });
    const created = await api.post(ENDPOINTS, { url: 'https://example.com/hook', [field]: value });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ code: 'invalid_request', details: [expect.objectContaining({ path: field })] });
    expect((await api.get(ENDPOINTS)).body.data).toHaveLength(1);

    const patched = await api.patch(`${ENDPOINTS}/${endpoint.id}`, { [field]: value, description: 'not applied' });
    expect(patched.status).toBe(400);
    expect(patched.body).toMatchObject({ code: 'invalid_request', details: [expect.objectContaining({ path: field })] });
    expect((await api.get(`${ENDPOINTS}/${endpoint.id}`)).body).toMatchObject({ rate_limit_per_s: 5, max_in_flight: 2, description: '' });
  });
});

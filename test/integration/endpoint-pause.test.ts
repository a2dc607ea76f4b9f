import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { WEBHOOK_DELIVERY_STATUS } from '../../src/temporal/search-attributes';
import { deliveryClosed } from '../support/delivery-workflows';
import { apiClient, createAccountWithKey, eventually } from '../support/platform';
import type { Reply } from '../support/receiver';
import { receivingPlatform } from '../support/receiving-platform';

/**
 * Pausing and resuming an endpoint, through real Temporal workflows to real HTTPS receivers: while
 * paused nothing is posted to it and deliveries that come due wait (no attempt is spent); a resume
 * wakes each, and it makes the attempt that came due.
 */
describe('endpoint pause and resume', () => {
  const fixture = receivingPlatform();
  const setUp = (respond: (index: number) => Reply) => fixture.subscribe(respond, { path: '/hook' });
  const temporal = () => fixture.platform.temporal;

  type Api = ReturnType<typeof apiClient>;
  type Attempt = { attempt: number; status_code: number | null };
  const deliveryOf = async (api: Api, eventId: number) => (await api.get(`/api/v1/webhooks/events/${eventId}`)).body.deliveries[0];
  const ingest = async (api: Api) => {
    const res = await api.post('/api/v1/webhooks/events', { type: 'order.created', data: {} });
    expect(res.body.destinations).toBe(1);
    return res.body.id as number;
  };
  const endpointPath = (endpointId: string) => `/api/v1/webhooks/endpoints/${endpointId}`;
  const attemptsOf = (delivery: { attempts: Attempt[] }) => delivery.attempts.map((a) => [a.attempt, a.status_code]);

  /** Waits until the delivery is recorded as waiting for its paused endpoint. */
  const waitsPaused = (api: Api, eventId: number) => eventually(async () => ((await deliveryOf(api, eventId)).paused === true ? true : undefined), 60_000);
  /** Waits until the delivery's run has taken its paused outcome: it then waits for the resume (its search attribute says `paused`). */
  const runWaitsPaused = (eventId: number, endpointId: string) =>
    eventually(async () => (await temporal().workflow.getHandle(deliveryId(eventId, endpointId)).describe()).typedSearchAttributes.get(WEBHOOK_DELIVERY_STATUS) === 'paused', 30_000);

  /** A reply held until the test releases it: an attempt in flight, at the racy point. */
  function heldReply(status: number): { reply: Reply; release: () => void } {
    let release!: () => void;
    const until = new Promise<void>((r) => (release = r));
    return { reply: { status, until }, release };
  }

  it('posts nothing to a paused endpoint while events arrive and a retry comes due; on resume each waiting delivery makes the attempt that came due', async () => {
    // The first attempt is held in flight while the endpoint is paused, then fails: its retry comes due during the pause.
    const first = heldReply(500);
    const { receiver, api, endpoint } = await setUp((i) => (i === 0 ? first.reply : { status: 200 }));
    const retried = await ingest(api);
    await eventually(async () => receiver.received.length === 1, 30_000);
    expect((await api.post(`${endpointPath(endpoint.id)}/pause`)).status).toBe(200);
    first.release();

    await waitsPaused(api, retried);
    expect(await deliveryOf(api, retried)).toMatchObject({ status: 'retrying', attempt_count: 1, paused: true });
    // New events are still accepted and matched to it; their first attempts wait too.
    const fresh = [await ingest(api), await ingest(api)];
    for (const id of fresh) {
      await waitsPaused(api, id);
      expect(await deliveryOf(api, id)).toMatchObject({ status: 'pending', attempt_count: 0, paused: true, attempts: [] });
    }
    for (const id of [retried, ...fresh]) await runWaitsPaused(id, endpoint.id);
    expect(await deliveryOf(api, retried)).toMatchObject({ attempt_count: 1 });
    expect(receiver.received).toHaveLength(1);

    const resumed = await api.post(`${endpointPath(endpoint.id)}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ id: endpoint.id, paused: false });

    // A closed run makes no more attempts: what was received is then final.
    for (const id of [retried, ...fresh]) expect(await deliveryClosed(temporal(), id, endpoint.id)).toBe('COMPLETED');
    const delivered = await deliveryOf(api, retried);
    expect(delivered).toMatchObject({ status: 'succeeded', attempt_count: 2, paused: false });
    expect(attemptsOf(delivered)).toEqual([
      [1, 500],
      [2, 200],
    ]);
    for (const id of fresh) {
      const d = await deliveryOf(api, id);
      expect(d).toMatchObject({ status: 'succeeded', attempt_count: 1, paused: false });
      expect(attemptsOf(d)).toEqual([[1, 200]]);
    }
    expect(receiver.received).toHaveLength(4);
  }, 120_000);

  it('answers pause and resume with the endpoint, 200 and unchanged when repeated; GET shows `paused`; 404 for another account', async () => {
    const { api, endpoint } = await setUp(() => ({ status: 200 }));
    expect(endpoint.paused).toBe(false);

    const paused = await api.post(`${endpointPath(endpoint.id)}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ id: endpoint.id, url: endpoint.url, paused: true, disabled: false });
    const again = await api.post(`${endpointPath(endpoint.id)}/pause`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(paused.body);
    expect((await api.get(endpointPath(endpoint.id))).body.paused).toBe(true);
    expect((await api.get('/api/v1/webhooks/endpoints')).body.data[0]).toMatchObject({ id: endpoint.id, paused: true });

    const other = apiClient(fixture.platform, (await createAccountWithKey(fixture.platform)).key);
    for (const action of ['pause', 'resume']) {
      expect((await other.post(`${endpointPath(endpoint.id)}/${action}`)).status).toBe(404);
      expect((await api.post(`${endpointPath('ep_000000000000000000000000')}/${action}`)).status).toBe(404);
    }
    expect((await api.get(endpointPath(endpoint.id))).body.paused).toBe(true);

    const resumed = await api.post(`${endpointPath(endpoint.id)}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ id: endpoint.id, paused: false });
    const resumedAgain = await api.post(`${endpointPath(endpoint.id)}/resume`);
    expect(resumedAgain.status).toBe(200);
    expect(resumedAgain.body).toEqual(resumed.body);
    expect((await api.get(endpointPath(endpoint.id))).body.paused).toBe(false);
  });

  it('lets an attempt in flight when the endpoint is paused finish and be recorded; the next one waits paused and is made on resume', async () => {
    const second = heldReply(500);
    const { receiver, api, endpoint } = await setUp((i) => (i === 1 ? second.reply : { status: 500 }));
    const id = await ingest(api);
    await eventually(async () => receiver.received.length === 2, 30_000);

    // Paused while attempt 2's POST is held open by the receiver, then released.
    expect((await api.post(`${endpointPath(endpoint.id)}/pause`)).status).toBe(200);
    second.release();

    await waitsPaused(api, id);
    const waiting = await deliveryOf(api, id);
    expect(waiting).toMatchObject({ status: 'retrying', attempt_count: 2, paused: true });
    expect(attemptsOf(waiting)).toEqual([
      [1, 500],
      [2, 500],
    ]);
    expect(receiver.received).toHaveLength(2);

    expect((await api.post(`${endpointPath(endpoint.id)}/resume`)).status).toBe(200);
    const after = await eventually(async () => {
      const d = await deliveryOf(api, id);
      return d.attempt_count === 3 ? d : undefined;
    }, 60_000);
    expect(after).toMatchObject({ status: 'retrying', paused: false });
    expect(attemptsOf(after)).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
    ]);
    await api.post(`/api/v1/webhooks/events/${id}/deliveries/${endpoint.id}/cancel`);
    expect(await deliveryClosed(temporal(), id, endpoint.id)).toBe('CANCELLED');
    expect(receiver.received).toHaveLength(3);
  }, 120_000);

  it('lists the deliveries that wait paused oldest event first, by event number, page after page; a state written ends the wait', async () => {
    const deliveries = fixture.platform.repositories.deliveries;
    const endpointId = `ep_listing${Date.now()}`;
    const ref = (eventId: number) => ({ id: deliveryId(eventId, endpointId), account_id: 'acct_listing', event_id: eventId, endpoint_id: endpointId });
    const at = new Date();
    // Their ids sort otherwise as strings ("delivery-10-..." before "delivery-9-...").
    for (const eventId of [100, 9, 10, 11]) await deliveries.markPaused(ref(eventId), 1, at);
    expect(await deliveries.pausedForEndpoint(endpointId, undefined, 2)).toEqual([
      { id: deliveryId(9, endpointId), eventId: 9 },
      { id: deliveryId(10, endpointId), eventId: 10 },
    ]);
    expect((await deliveries.pausedForEndpoint(endpointId, 10, 2)).map((d) => d.eventId)).toEqual([11, 100]);
    expect(await deliveries.find(deliveryId(9, endpointId))).toMatchObject({ status: 'pending', attempt_count: 0, round: 1, paused: true });

    await deliveries.setState(ref(10), { round: 1, status: 'cancelled', attempt_count: 0, next_attempt_at: null }, at);
    await deliveries.recordAttempt(
      ref(11),
      { round: 1, attempt: 1, started_at: at, duration_ms: 1, status_code: 200, error: null, response_body: null, succeeded: true },
      { round: 1, status: 'succeeded', attempt_count: 1, next_attempt_at: null, url: 'https://example.test/' },
      at,
    );
    expect((await deliveries.pausedForEndpoint(endpointId, undefined, 100)).map((d) => d.eventId)).toEqual([9, 100]);
    expect((await deliveries.find(deliveryId(11, endpointId)))?.paused).toBeUndefined();
    expect(await deliveries.pausedForEndpoint(`${endpointId}x`, undefined, 1)).toEqual([]);
  });

  it('still cancels the waiting deliveries of a paused endpoint that is disabled', async () => {
    const { receiver, api, endpoint } = await setUp(() => ({ status: 200 }));
    expect((await api.post(`${endpointPath(endpoint.id)}/pause`)).status).toBe(200);
    const id = await ingest(api);
    await waitsPaused(api, id);
    await runWaitsPaused(id, endpoint.id);

    expect((await api.patch(endpointPath(endpoint.id), { disabled: true })).status).toBe(200);
    expect(await deliveryClosed(temporal(), id, endpoint.id)).toBe('CANCELLED');
    expect(await deliveryOf(api, id)).toMatchObject({ status: 'cancelled', attempt_count: 0, paused: false, attempts: [] });
    expect(receiver.received).toHaveLength(0);
  }, 60_000);
});

import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { deliveryClosed, timerEnds, waitsBefore } from '../support/delivery-workflows';
import { csrfTokenIn, DashboardClient, GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { holdMethod } from '../support/gate';
import { type ApiResponse, apiClient, createAccountWithKey, eventually } from '../support/platform';
import type { Reply } from '../support/receiver';
import { receivingPlatform } from '../support/receiving-platform';
import { sendEventAccepted } from '../support/send-event';

/**
 * Control over deliveries in flight, through real Temporal workflows to real HTTPS receivers:
 * retry now (one delivery, or every waiting delivery of an endpoint) and cancel.
 */
describe('delivery control: retry now and cancel', () => {
  const fixture = receivingPlatform();
  const setUp = (respond: (index: number) => Reply) => fixture.subscribe(respond, { path: '/hook' });
  const failing = () => ({ status: 500 });
  const temporal = () => fixture.platform.temporal;

  type Api = ReturnType<typeof apiClient>;
  const deliveryOf = async (api: Api, eventId: number) => (await api.get(`/api/v1/webhooks/events/${eventId}`)).body.deliveries[0];
  const ingest = async (api: Api) => (await sendEventAccepted(api, { type: 'order.created', data: {} })).body.id as number;
  const controlPath = (eventId: number, endpointId: string, action: 'retry-now' | 'cancel') => `/api/v1/webhooks/events/${eventId}/deliveries/${endpointId}/${action}`;

  /** Waits until the delivery's run waits on its timer before attempt `attempt` (the real schedule: 30 s before attempt 4). */
  async function waitingBefore(eventId: number, endpointId: string, attempt: number): Promise<void> {
    await eventually(() => waitsBefore(temporal(), deliveryId(eventId, endpointId), attempt), 60_000);
  }

  /** A reply held until the test releases it: an attempt in flight, at the racy point. */
  function heldReply(): { reply: Reply; release: () => void } {
    let release!: () => void;
    const until = new Promise<void>((r) => (release = r));
    return { reply: { status: 500, until }, release };
  }

  it('retry now makes the next attempt, numbered n+1, before its timer fires, and the schedule goes on from there', async () => {
    const { receiver, api, endpoint } = await setUp(failing);
    const id = await ingest(api);
    await waitingBefore(id, endpoint.id, 4);
    const waiting = await deliveryOf(api, id);
    expect(waiting).toMatchObject({ status: 'retrying', attempt_count: 3 });

    const res = await api.post(controlPath(id, endpoint.id, 'retry-now'));
    expect(res.status).toBe(202);
    // The delivery as it was woken: the attempts made so far, not the one made now (docs/api.md, the README's tour).
    expect(res.body).toMatchObject({ endpoint_id: endpoint.id, round: 1, attempt_count: 3 });

    // Attempt 4 is made and then the wait after attempt 4 (5 min) begins: the schedule goes on from n+1.
    await waitingBefore(id, endpoint.id, 5);
    const delivery = await deliveryOf(api, id);
    expect(delivery.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4]);
    // It came before the time its timer was due, and the timer was cancelled rather than fired.
    expect(new Date(delivery.attempts[3].started_at).getTime()).toBeLessThan(new Date(waiting.next_attempt_at).getTime());
    expect(await timerEnds(temporal(), deliveryId(id, endpoint.id))).toEqual({ fired: 2, canceled: 1 });
    expect(receiver.received).toHaveLength(4);
    await api.post(controlPath(id, endpoint.id, 'cancel'));
  }, 90_000);

  it('retry now on a delivered delivery answers 409 delivery_not_waiting', async () => {
    const { receiver, api, endpoint } = await setUp(() => ({ status: 200 }));
    const id = await ingest(api);
    expect(await deliveryClosed(temporal(), id, endpoint.id)).toBe('COMPLETED');
    const res = await api.post(controlPath(id, endpoint.id, 'retry-now'));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('delivery_not_waiting');
    expect(receiver.received).toHaveLength(1);
  });

  it("answers 404 for an unknown event, another account's event, or an endpoint the event was not delivered to", async () => {
    const { api, endpoint } = await setUp(() => ({ status: 200 }));
    const id = await ingest(api);
    const other = apiClient(fixture.platform, (await createAccountWithKey(fixture.platform)).key);
    for (const action of ['retry-now', 'cancel'] as const) {
      expect((await api.post(controlPath(id + 1_000_000, endpoint.id, action))).status).toBe(404);
      expect((await other.post(controlPath(id, endpoint.id, action))).status).toBe(404);
      expect((await api.post(controlPath(id, 'ep_000000000000000000000000', action))).status).toBe(404);
    }
    expect((await other.post(`/api/v1/webhooks/endpoints/${endpoint.id}/retry-now`)).status).toBe(404);
  });

  it('cancel ends a retrying delivery as cancelled, and no further attempt arrives', async () => {
    const { receiver, api, endpoint } = await setUp(failing);
    const id = await ingest(api);
    await waitingBefore(id, endpoint.id, 3);

    const res = await api.post(controlPath(id, endpoint.id, 'cancel'));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ endpoint_id: endpoint.id, attempt_count: 2 });

    // Once the run has closed, no attempt can come from it: the count is final.
    expect(await deliveryClosed(temporal(), id, endpoint.id)).toBe('CANCELLED');
    expect(await deliveryOf(api, id)).toMatchObject({ status: 'cancelled', attempt_count: 2, next_attempt_at: null });
    expect(receiver.received).toHaveLength(2);
    const again = await api.post(controlPath(id, endpoint.id, 'cancel'));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('delivery_ended');
  }, 60_000);

  it('retry now while the first attempt is in flight answers 409 delivery_not_waiting at once, not a 503 when its run does not answer', async () => {
    const first = heldReply();
    const { receiver, api, endpoint } = await setUp((i) => (i === 0 ? first.reply : { status: 200 }));
    const id = await ingest(api);
    await eventually(async () => receiver.received.length === 1, 30_000);

    const res = await api.post(controlPath(id, endpoint.id, 'retry-now'));
    expect([res.status, res.body.code]).toEqual([409, 'delivery_not_waiting']);
    first.release();
    await waitingBefore(id, endpoint.id, 2);
    await api.post(controlPath(id, endpoint.id, 'cancel'));
  }, 60_000);

  it('cancel while an attempt is in flight lets it finish and be recorded, then ends the delivery cancelled', async () => {
    const second = heldReply();
    const { receiver, api, endpoint } = await setUp((i) => (i === 1 ? second.reply : { status: 500 }));
    const id = await ingest(api);
    await eventually(async () => receiver.received.length === 2, 30_000);

    const res = await api.post(controlPath(id, endpoint.id, 'cancel'));
    expect(res.status).toBe(202);
    second.release();

    expect(await deliveryClosed(temporal(), id, endpoint.id)).toBe('CANCELLED');
    const delivery = await deliveryOf(api, id);
    expect(delivery).toMatchObject({ status: 'cancelled', attempt_count: 2, next_attempt_at: null });
    expect(delivery.attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 500],
    ]);
    expect(receiver.received).toHaveLength(2);
  }, 60_000);

  it('retry now racing the timer as it fires makes exactly one attempt: held until the timer has fired, it finds the attempt in flight (409)', async () => {
    const third = heldReply();
    const { receiver, api, endpoint } = await setUp((i) => (i === 2 ? third.reply : { status: 500 }));
    const id = await ingest(api);
    await waitingBefore(id, endpoint.id, 3);

    // The wake-up is held on its way to the workflow while the 5 s timer fires and attempt 3 reaches the receiver.
    const gate = holdMethod(fixture.platform.services.scheduler, 'retryNow');
    let answer: ApiResponse | undefined;
    try {
      const woken = api.post(controlPath(id, endpoint.id, 'retry-now'));
      await gate.reached;
      await eventually(async () => receiver.received.length === 3, 30_000);
      gate.open();
      answer = await woken;
    } finally {
      gate.open();
      gate.restore();
    }
    third.release();

    expect(answer?.status).toBe(409);
    expect(answer?.body.code).toBe('delivery_not_waiting');
    await waitingBefore(id, endpoint.id, 4);
    expect((await deliveryOf(api, id)).attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3]);
    expect(await timerEnds(temporal(), deliveryId(id, endpoint.id))).toEqual({ fired: 2, canceled: 0 });
    expect(receiver.received).toHaveLength(3);
    await api.post(controlPath(id, endpoint.id, 'cancel'));
  }, 60_000);

  it('retry now for an endpoint wakes every delivery of it that waits and answers how many', async () => {
    const { receiver, api, endpoint } = await setUp(failing);
    const ids = [await ingest(api), await ingest(api), await ingest(api)];
    for (const id of ids) await waitingBefore(id, endpoint.id, 4);

    const res = await api.post(`/api/v1/webhooks/endpoints/${endpoint.id}/retry-now`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ woken: 3, not_waiting: 0, next_cursor: null });

    for (const id of ids) {
      await waitingBefore(id, endpoint.id, 5);
      expect((await deliveryOf(api, id)).attempt_count).toBe(4);
      expect(await timerEnds(temporal(), deliveryId(id, endpoint.id))).toEqual({ fired: 2, canceled: 1 });
    }
    expect(receiver.received).toHaveLength(12);
    for (const id of ids) await api.post(controlPath(id, endpoint.id, 'cancel'));
  }, 90_000);

  describe('on the dashboard', () => {
    /** A signed-up account (dashboard session) whose endpoint's receiver always fails, and one event sent to it, as a person does. */
    async function dashboardDelivery() {
      const receiver = await fixture.receiver(failing);
      const client = DashboardClient.fromNewIp(fixture.platform.apiUrl!);
      await client.signUp(newEmail(), GOOD_PASSWORD);
      const created = await client.submit('/dashboard/endpoints', '/dashboard/endpoints', { url: `${receiver.url}/hook`, events: '*', description: '' });
      const endpointPath = created.location!.split('?')[0];
      const sent = await client.submit('/dashboard/events', '/dashboard/events', { type: 'order.created', data: '{}' });
      const eventPath = sent.location!.split('?')[0];
      const [eventId, endpointId] = [Number(eventPath.split('/').pop()), endpointPath.split('/').pop()!];
      return { client, receiver, endpointPath, eventPath, eventId, endpointId, deliveryPath: `${eventPath}/deliveries/${endpointId}` };
    }

    it('offers retry now and cancel beside a waiting delivery, each a form with its CSRF token, and does what the API does', async () => {
      const { client, receiver, eventPath, eventId, endpointId, deliveryPath } = await dashboardDelivery();
      await waitingBefore(eventId, endpointId, 4);
      const page = (await client.get(eventPath)).text;
      expect(page).toContain(`action="${deliveryPath}/retry-now"`);
      expect(page).toContain(`action="${deliveryPath}/cancel"`);
      expect((await client.post(`${deliveryPath}/retry-now`, {})).status).toBe(403);

      const woken = await client.submit(eventPath, `${deliveryPath}/retry-now`, {});
      expect([woken.status, woken.location]).toEqual([303, `${eventPath}?notice=retry-now-started`]);
      await waitingBefore(eventId, endpointId, 5);
      expect(receiver.received).toHaveLength(4);

      const cancelled = await client.submit(eventPath, `${deliveryPath}/cancel`, {});
      expect([cancelled.status, cancelled.location]).toEqual([303, `${eventPath}?notice=delivery-cancelling`]);
      expect(await deliveryClosed(temporal(), eventId, endpointId)).toBe('CANCELLED');
      expect(receiver.received).toHaveLength(4);
    }, 90_000);

    it('shows the refusal of a delivery that no longer waits or has ended (409) as a message on the event page', async () => {
      const { client, eventPath, eventId, endpointId, deliveryPath } = await dashboardDelivery();
      await waitingBefore(eventId, endpointId, 3);
      await client.submit(eventPath, `${deliveryPath}/cancel`, {});
      await deliveryClosed(temporal(), eventId, endpointId);
      const token = csrfTokenIn((await client.get(eventPath)).text);

      const retryNow = await client.post(`${deliveryPath}/retry-now`, { _csrf: token });
      expect(retryNow.status).toBe(409);
      expect(retryNow.text).toContain(`Event #${eventId}`);
      expect(retryNow.text).toMatch(/role="alert"[^]*is not waiting for its next attempt/);
      const cancel = await client.post(`${deliveryPath}/cancel`, { _csrf: token });
      expect(cancel.status).toBe(409);
      expect(cancel.text).toMatch(/role="alert"[^]*there is nothing to cancel/);
    }, 60_000);

    it("offers retry all waiting now on the endpoint's page: it wakes the endpoint's waiting deliveries, and says when none waited", async () => {
      const { client, receiver, endpointPath, eventId, endpointId } = await dashboardDelivery();
      await waitingBefore(eventId, endpointId, 4);
      expect((await client.get(endpointPath)).text).toContain(`action="${endpointPath}/retry-now"`);
      expect((await client.post(`${endpointPath}/retry-now`, {})).status).toBe(403);

      const woken = await client.submit(endpointPath, `${endpointPath}/retry-now`, {});
      expect([woken.status, woken.location]).toEqual([303, `${endpointPath}?notice=retry-now-woken`]);
      await waitingBefore(eventId, endpointId, 5);
      expect(receiver.received).toHaveLength(4);

      await client.submit(endpointPath, `${endpointPath}/disable`, {});
      await deliveryClosed(temporal(), eventId, endpointId);
      const none = await client.submit(endpointPath, `${endpointPath}/retry-now`, {});
      expect(none.location).toBe(`${endpointPath}?notice=retry-now-none`);
      expect((await client.get(none.location!)).text).toContain('No delivery to this endpoint was waiting');
    }, 90_000);
  });
});

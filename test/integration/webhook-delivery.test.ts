import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import {
  WEBHOOK_ATTEMPT_COUNT,
  WEBHOOK_DELIVERY_STATUS,
  WEBHOOK_ENDPOINT_ID,
  WEBHOOK_EVENT_ID,
  WEBHOOK_EVENT_TYPE,
} from '../../src/temporal/search-attributes';
import type { Platform } from '../../src/main/platform';
import { DashboardClient, GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { deliveryClosed, retryWaits } from '../support/delivery-workflows';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { Reply, startReceiver } from '../support/receiver';
import { receivingPlatform } from '../support/receiving-platform';
import { verifySignature } from '../support/spec-signature';
import { sendEventAccepted } from '../support/send-event';

/** Delivery through real Temporal workflows to real HTTPS receivers on 127.0.0.1. */
describe('webhook delivery', () => {
  const fixture = receivingPlatform();
  const setUp = (respond: (index: number) => Reply, events = ['*']) => fixture.subscribe(respond, { path: '/hook', events });

  async function waitForDelivery(api: ReturnType<typeof apiClient>, eventId: number, done: (d: any) => boolean, timeoutMs = 30_000) {
    return eventually(async () => {
      const event = (await api.get(`/api/v1/webhooks/events/${eventId}`)).body;
      return done(event.deliveries[0]) ? event : undefined;
    }, timeoutMs);
  }

  it('retries a failing receiver after 1 s then 5 s and stops at the first 2xx', async () => {
    const { receiver, api, endpoint } = await setUp((i) => (i < 2 ? { status: 503, body: 'busy' } : { status: 200 }));
    const id = (await sendEventAccepted(api, { type: 'job.done', data: { job: 7 } })).body.id;
    const event = await waitForDelivery(api, id, (d) => d.status === 'succeeded', 40_000);
    const delivery = event.deliveries[0];
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 3, next_attempt_at: null });
    expect(delivery.attempts.map((a: any) => [a.attempt, a.status_code])).toEqual([[1, 503], [2, 503], [3, 200]]);
    expect(delivery.attempts[0]).toMatchObject({ error: 'Destination answered HTTP 503.', response_body: 'busy' });
    expect(receiver.received).toHaveLength(3);
    // The run waited 1 s, then 5 s (its timers), and no retry reached the receiver before its time.
    expect(await retryWaits(fixture.platform.temporal, deliveryId(id, endpoint.id))).toEqual([1_000, 5_000]);
    const gaps = [receiver.received[1].at - receiver.received[0].at, receiver.received[2].at - receiver.received[1].at];
    expect(gaps[0]).toBeGreaterThanOrEqual(1000);
    expect(gaps[1]).toBeGreaterThanOrEqual(5000);
    // Identical bytes and a valid signature on every attempt.
    expect(new Set(receiver.received.map((r) => r.rawBody)).size).toBe(1);
    for (const r of receiver.received) expect(verifySignature(endpoint.secret, r.rawBody, r.headers['x-webhook-signature'])).toBe(true);
    expect(await deliveryClosed(fixture.platform.temporal, id, endpoint.id)).toBe('COMPLETED');
    expect(receiver.received).toHaveLength(3);
  });

  it('sends the headers of the spec with the body fields', async () => {
    const { receiver, api } = await setUp(() => ({ status: 204 }));
    const res = await api.post('/api/v1/webhooks/events', { type: 'invoice.paid', data: { amount: 12.5, lines: [1, 2] } });
    await waitForDelivery(api, res.body.id, (d) => d.status === 'succeeded');
    const [request] = receiver.received;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-webhook-id']).toBe(String(res.body.id));
    expect(request.headers['x-webhook-type']).toBe('invoice.paid');
    expect(request.headers['x-webhook-timestamp']).toBe(String(res.body.timestamp));
    expect(request.headers['x-webhook-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(request.rawBody).toBe(JSON.stringify({ id: res.body.id, type: 'invoice.paid', data: { amount: 12.5, lines: [1, 2] }, timestamp: res.body.timestamp }));
  });

  it("delivers and shows the event's numbers as they were sent, those a double cannot hold too", async () => {
    const { receiver, api, key, endpoint } = await setUp(() => ({ status: 204 }));
    // An int64 id beyond 2^53, 30 digits, an exponent beyond a double's range, many decimals: JSON.parse would change each.
    const data = '{"order_id":9007199254740993,"big":123456789012345678901234567890,"huge":1e400,"lines":[{"price":0.1000000000000000055511151231257827}],"small":12.5}';
    const res = await api.post('/api/v1/webhooks/events', `{"type":"order.created","data":${data}}`);
    expect(res.status).toBe(202);
    await waitForDelivery(api, res.body.id, (d) => d.status === 'succeeded');
    const [request] = receiver.received;
    expect(request.rawBody).toBe(`{"id":${res.body.id},"type":"order.created","data":${data},"timestamp":${res.body.timestamp}}`);
    expect(verifySignature(endpoint.secret, request.rawBody, request.headers['x-webhook-signature'])).toBe(true);
    const shown = await fetch(`${fixture.platform.apiUrl}/api/v1/webhooks/events/${res.body.id}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(await shown.text()).toContain(`"data":${data},`);
  });

  it("delivers and shows a dashboard test event's numbers as they were typed", async () => {
    const receiver = await fixture.receiver(() => ({ status: 204 }));
    const client = DashboardClient.fromNewIp(fixture.platform.apiUrl!);
    await client.signUp(newEmail(), GOOD_PASSWORD);
    await client.submit('/dashboard/endpoints', '/dashboard/endpoints', { url: `${receiver.url}/hook`, events: '*', description: '' });
    const sent = await client.submit('/dashboard/events', '/dashboard/events', { type: 'order.created', data: '{"order_id": 9007199254740993}' });
    expect(sent.status).toBe(303);
    await eventually(async () => receiver.received.length > 0);
    expect(receiver.received[0].rawBody).toContain('"data":{"order_id":9007199254740993}');
    expect((await client.get(sent.location!.split('?')[0])).text).toContain('&quot;order_id&quot;: 9007199254740993');
  });

  it('shows a retrying delivery with its next attempt time while it waits', async () => {
    const { api } = await setUp(() => ({ status: 500 }));
    const id = (await sendEventAccepted(api, { type: 'a.b', data: {} })).body.id;
    const event = await waitForDelivery(api, id, (d) => d.status === 'retrying' && d.attempt_count === 2);
    const d = event.deliveries[0];
    expect(event.status).toBe('pending');
    const lastStart = new Date(d.attempts[1].started_at).getTime();
    const next = new Date(d.next_attempt_at).getTime();
    // Attempt 3 comes 5 s after the end of attempt 2.
    expect(next - (lastStart + d.attempts[1].duration_ms)).toBeGreaterThanOrEqual(4990);
    expect(next - (lastStart + d.attempts[1].duration_ms)).toBeLessThanOrEqual(5010);
  });

  it('treats a 3xx as a failure and does not follow the redirect', async () => {
    const { receiver, api } = await setUp((i) => (i === 0 ? { status: 302, headers: { Location: 'https://127.0.0.1:1/elsewhere' } } : { status: 200 }));
    const id = (await sendEventAccepted(api, { type: 'a.b', data: {} })).body.id;
    const event = await waitForDelivery(api, id, (d) => d.status === 'succeeded');
    expect(event.deliveries[0].attempts.map((a: any) => a.status_code)).toEqual([302, 200]);
    expect(receiver.received.map((r) => r.path)).toEqual(['/hook', '/hook']);
  });

  it('keeps only the first 4 KiB of a response body', async () => {
    const { api } = await setUp(() => ({ status: 200, body: 'y'.repeat(10_000) }));
    const id = (await sendEventAccepted(api, { type: 'a.b', data: {} })).body.id;
    const event = await waitForDelivery(api, id, (d) => d.status === 'succeeded');
    expect(event.deliveries[0].attempts[0].response_body).toBe('y'.repeat(4096));
  });

  it('fails an attempt that gets no answer within 30 s and retries it', async () => {
    const { api } = await setUp((i) => (i === 0 ? 'hang' : { status: 200 }));
    const id = (await sendEventAccepted(api, { type: 'slow.receiver', data: {} })).body.id;
    const event = await waitForDelivery(api, id, (d) => d.status === 'succeeded', 60_000);
    const [first, second] = event.deliveries[0].attempts;
    expect(first.status_code).toBeNull();
    // The time-out is the spec's 30 s, as the error says; how long the timer took on a loaded machine is not asserted.
    expect(first.error).toBe('Timed out: no complete response within 30 s.');
    expect(second.status_code).toBe(200);
  }, 90_000);

  it('signs every attempt after a secret rotation with the new secret', async () => {
    let rotated: string | undefined;
    const { receiver, api, endpoint } = await setUp((i) => (i === 0 ? { status: 500 } : { status: 200 }));
    const id = (await sendEventAccepted(api, { type: 'a.b', data: {} })).body.id;
    await eventually(async () => receiver.received.length >= 1 || undefined);
    rotated = (await api.post(`/api/v1/webhooks/endpoints/${endpoint.id}/secret/rotate`)).body.secret as string;
    await waitForDelivery(api, id, (d) => d.status === 'succeeded');
    const [first, second] = receiver.received;
    expect(verifySignature(endpoint.secret, first.rawBody, first.headers['x-webhook-signature'])).toBe(true);
    expect(verifySignature(rotated, second.rawBody, second.headers['x-webhook-signature'])).toBe(true);
    expect(verifySignature(endpoint.secret, second.rawBody, second.headers['x-webhook-signature'])).toBe(false);
  });

  it('stops pending retries when the endpoint is deleted and records the delivery cancelled', async () => {
    const { receiver, api, endpoint } = await setUp(() => ({ status: 500 }));
    const id = (await sendEventAccepted(api, { type: 'a.b', data: {} })).body.id;
    await waitForDelivery(api, id, (d) => d.status === 'retrying' && d.attempt_count >= 2);
    expect((await api.delete(`/api/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(204);
    const event = await waitForDelivery(api, id, (d) => d.status === 'cancelled');
    expect(event.status).toBe('failed');
    expect(event.deliveries[0].next_attempt_at).toBeNull();
    expect(await deliveryClosed(fixture.platform.temporal, id, endpoint.id)).toBe('CANCELLED');
    expect(receiver.received.length).toBe(event.deliveries[0].attempt_count);
  });

  it('retries a cancelled delivery as a new round from attempt 1, and refuses a retry while one is in flight', async () => {
    let failing = true;
    const { receiver, api, endpoint } = await setUp(() => (failing ? { status: 500 } : { status: 200 }));
    const id = (await sendEventAccepted(api, { type: 'a.b', data: {} })).body.id;
    const retryPath = `/api/v1/webhooks/events/${id}/deliveries/${endpoint.id}/retry`;
    await waitForDelivery(api, id, (d) => d.status === 'retrying');
    expect((await api.post(retryPath)).status).toBe(409);
    await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: true });
    await waitForDelivery(api, id, (d) => d.status === 'cancelled');
    expect((await api.post(retryPath)).status).toBe(409); // still disabled
    await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: false });
    failing = false;
    const retried = await api.post(retryPath);
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ status: 'pending', round: 2, attempt_count: 0 });
    const event = await waitForDelivery(api, id, (d) => d.status === 'succeeded');
    const d = event.deliveries[0];
    expect(d).toMatchObject({ round: 2, attempt_count: 1 });
    expect(d.attempts.filter((a: any) => a.round === 2).map((a: any) => [a.attempt, a.status_code])).toEqual([[1, 200]]);
    expect(d.attempts.filter((a: any) => a.round === 1).length).toBeGreaterThanOrEqual(1);
    expect(event.status).toBe('delivered');
    expect((await api.post(retryPath)).status).toBe(409); // succeeded
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps the workflow findable in the Temporal UI: search attributes current, summary readable', async () => {
    const { api, endpoint } = await setUp((i) => (i === 0 ? { status: 500 } : { status: 200 }));
    const res = await api.post('/api/v1/webhooks/events', { type: 'order.created', data: {} });
    await waitForDelivery(api, res.body.id, (d) => d.status === 'succeeded');
    const handle = fixture.platform.temporal.workflow.getHandle(`delivery-${res.body.id}-${endpoint.id}`);
    // The record is written by the attempt, the search attributes by the workflow right after it.
    const description = await eventually(async () => {
      const d = await handle.describe();
      return d.typedSearchAttributes.get(WEBHOOK_DELIVERY_STATUS) === 'succeeded' ? d : undefined;
    }, 30_000);
    const sa = description.typedSearchAttributes;
    expect(sa.get(WEBHOOK_EVENT_ID)).toBe(res.body.id);
    expect(sa.get(WEBHOOK_ENDPOINT_ID)).toBe(endpoint.id);
    expect(sa.get(WEBHOOK_EVENT_TYPE)).toBe('order.created');
    expect(sa.get(WEBHOOK_DELIVERY_STATUS)).toBe('succeeded');
    expect(sa.get(WEBHOOK_ATTEMPT_COUNT)).toBe(2);
    expect(await description.staticSummary()).toBe(`order.created #${res.body.id} → ${endpoint.url}`);
    // The operator's query: every delivery of this endpoint that succeeded.
    await eventually(async () => {
      const ids = [];
      for await (const wf of fixture.platform.temporal.workflow.list({ query: `WebhookEndpointId = "${endpoint.id}" AND WebhookDeliveryStatus = "succeeded"` })) ids.push(wf.workflowId);
      return ids.includes(handle.workflowId) || undefined;
    }, 30_000);
  });

  it('answers 404 for a retry of an unknown delivery', async () => {
    const { api } = await setUp(() => ({ status: 200 }));
    const id = (await sendEventAccepted(api, { type: 'a.b', data: {} })).body.id;
    expect((await api.post(`/api/v1/webhooks/events/${id}/deliveries/ep_unknown/retry`)).status).toBe(404);
  });
});

/** The destination is checked again at every attempt, by the worker that makes it. */
describe('destination check at attempt time', () => {
  let api: Platform;
  let worker: Platform;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    api = await startTestPlatform({ roles: { api: true, worker: false } });
    worker = await startTestPlatform({ roles: { api: false, worker: true }, sameAs: api, env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'false' } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    await receiver?.close();
  });

  it('refuses to POST to a private address at attempt time and records why', async () => {
    const client = apiClient(api, (await createAccountWithKey(api)).key);
    await client.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/private` });
    const id = (await sendEventAccepted(client, { type: 'a.b', data: {} })).body.id;
    const event = await eventually(async () => {
      const e = (await client.get(`/api/v1/webhooks/events/${id}`)).body;
      return e.deliveries[0].attempt_count >= 1 ? e : undefined;
    });
    expect(event.deliveries[0].status).toBe('retrying');
    expect(event.deliveries[0].attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/not an allowed destination/) });
    expect(receiver.received).toHaveLength(0);
  });
});

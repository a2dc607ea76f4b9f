import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { verifySignature } from '../support/spec-signature';

/** The whole chain on real servers: Koa route → Temporal workflow → activity → MongoDB → API. */
describe('end to end: an ingested event is delivered and its history read back', () => {
  let platform: Platform;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    platform = await startTestPlatform();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
  });

  it('delivers a signed POST and reports the event delivered with one 200 attempt', async () => {
    const { key } = await createAccountWithKey(platform);
    const api = apiClient(platform, key);
    const endpoint = await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/hook`, events: ['order.*'] });
    expect(endpoint.status).toBe(201);

    const ingest = await api.post('/api/v1/webhooks/events', { type: 'order.created', data: { order: 42 } });
    expect(ingest.status).toBe(202);
    expect(ingest.body).toMatchObject({ type: 'order.created', destinations: 1, idempotency_key: null });

    const event = await eventually(async () => {
      const res = await api.get(`/api/v1/webhooks/events/${ingest.body.id}`);
      return res.body.status === 'delivered' ? res.body : undefined;
    });
    expect(event.deliveries).toHaveLength(1);
    expect(event.deliveries[0]).toMatchObject({ endpoint_id: endpoint.body.id, status: 'succeeded', attempt_count: 1, next_attempt_at: null });
    expect(event.deliveries[0].attempts[0]).toMatchObject({ attempt: 1, status_code: 200, error: null, response_body: 'ok' });

    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0];
    expect(JSON.parse(request.rawBody)).toEqual({ id: ingest.body.id, type: 'order.created', data: { order: 42 }, timestamp: ingest.body.timestamp });
    expect(verifySignature(endpoint.body.secret, request.rawBody, request.headers['x-webhook-signature'])).toBe(true);
  });
});

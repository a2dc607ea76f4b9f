import { eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';
import { storeBehindProxy } from '../support/store-proxy';

/**
 * A store that does not answer (down, restarting) is a dependency down: calls answer 503 `service_unavailable`
 * with Retry-After, as CONTRACT's error codes say, never a 500; once it answers again, calls go through as before.
 */
describe('while the store is unreachable', () => {
  const store = storeBehindProxy();
  const fixture = receivingPlatform(store.env);
  afterEach(() => store.proxy().refuse(false));

  it('a read answers 503 service_unavailable with Retry-After 1', async () => {
    const { api } = await fixture.subscribe(() => ({ status: 200 }), { path: '/read' });
    store.proxy().refuse(true);
    const answer = await api.get('/api/v1/webhooks/endpoints');
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'service_unavailable', retry_after: 1 });
    expect(answer.headers.get('retry-after')).toBe('1');
  }, 60_000);

  it('an ingest answers 503, and its repeat once the store is back is accepted and delivered', async () => {
    const { api, receiver } = await fixture.subscribe(() => ({ status: 200 }), { path: '/ingest' });
    const event = { type: 'store.down', data: { n: 1 }, idempotency_key: 'store-unreachable-1' };
    store.proxy().refuse(true);
    const refused = await api.post('/api/v1/webhooks/events', event);
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('service_unavailable');

    store.proxy().refuse(false);
    const accepted = await eventually(async () => {
      const answer = await api.post('/api/v1/webhooks/events', event);
      return answer.status === 200 || answer.status === 202 ? answer : undefined;
    }, 30_000);
    await eventually(async () => receiver.received.length === 1 || undefined, 30_000);
    expect(JSON.parse(receiver.received[0].rawBody).id).toBe(accepted.body.id);
  }, 90_000);
});

import { holdMethod } from '../support/gate';
import { deliveryClosed } from '../support/delivery-workflows';
import { apiClient, eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';
import { isInsertInto, storeBehindProxy } from '../support/store-proxy';

/**
 * An ingest whose event insert lands in the store but whose answer is lost (the connection
 * fails after the store did the work) cannot tell whether its event exists. It answers 503, and
 * the event is neither left pending forever nor delivered twice: once the process knows it is
 * stored, it is delivered when it answers its key (or has none), and removed when a repeat's
 * event took the key first.
 */
describe('an ingest whose event insert lands but whose answer is lost', () => {
  const store = storeBehindProxy();
  const fixture = receivingPlatform(store.env);

  /** The ingest's event insert is carried out and its answer lost; the call answers 503. */
  async function ingestLosingTheInsertAnswer(api: ReturnType<typeof apiClient>, event: object) {
    const proxy = store.proxy();
    const lostBefore = proxy.answersLost;
    proxy.loseAnswerTo(isInsertInto('events'));
    const ingest = await api.post('/api/v1/webhooks/events', event);
    expect(proxy.answersLost).toBe(lostBefore + 1);
    expect(ingest.status).toBe(503);
    expect(ingest.body.code).toBe('service_unavailable');
  }

  /** Every event the process stored is settled: handed over to delivery, or removed. */
  const settled = () => eventually(async () => fixture.platform.services.outbox.backlog === 0 || undefined, 30_000);

  async function listed(api: ReturnType<typeof apiClient>) {
    return (await api.get('/api/v1/webhooks/events')).body.data as Array<{ id: number; status: string }>;
  }

  const postedIds = (receiver: { received: Array<{ rawBody: string }> }) => receiver.received.map((r) => JSON.parse(r.rawBody).id as number);

  it('the stored event answers its key and is delivered once', async () => {
    const { receiver, api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/keyed' });
    const event = { type: 'insert.lost', data: { n: 1 }, idempotency_key: 'insert-answer-lost-1' };
    await ingestLosingTheInsertAnswer(api, event);
    await settled();

    const repeat = await api.post('/api/v1/webhooks/events', event);
    expect(repeat.status).toBe(200);
    const id = repeat.body.id as number;
    await deliveryClosed(fixture.platform.temporal, id, endpoint.id, 30_000);
    expect(postedIds(receiver)).toEqual([id]);
    expect(await listed(api)).toEqual([expect.objectContaining({ id, status: 'delivered' })]);
  }, 90_000);

  it('a stored event without a key is delivered once', async () => {
    const { receiver, api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/keyless' });
    await ingestLosingTheInsertAnswer(api, { type: 'insert.lost', data: { n: 2 } });
    await settled();

    const [stored] = await listed(api);
    await deliveryClosed(fixture.platform.temporal, stored.id, endpoint.id, 30_000);
    expect(postedIds(receiver)).toEqual([stored.id]);
    expect(await listed(api)).toEqual([expect.objectContaining({ id: stored.id, status: 'delivered' })]);
  }, 90_000);

  it('a repeat that takes the key before the stored event is settled is delivered, and the stored event is removed', async () => {
    const { receiver, api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/repeated' });
    const event = { type: 'insert.lost', data: { n: 3 }, idempotency_key: 'insert-answer-lost-3' };
    // The unanswered ingest never claims its key: the first claim of the key is the stored event's, held there.
    const gate = holdMethod(fixture.platform.repositories.idempotency, 'claim', { when: (record) => record.key === event.idempotency_key });
    try {
      await ingestLosingTheInsertAnswer(api, event);
      await gate.reached;
      const repeat = await api.post('/api/v1/webhooks/events', event);
      expect(repeat.status).toBe(202);
      gate.open();
      await settled();

      const id = repeat.body.id as number;
      await deliveryClosed(fixture.platform.temporal, id, endpoint.id, 30_000);
      expect(postedIds(receiver)).toEqual([id]);
      expect(await listed(api)).toEqual([expect.objectContaining({ id, status: 'delivered' })]);
    } finally {
      gate.restore();
    }
  }, 90_000);
});

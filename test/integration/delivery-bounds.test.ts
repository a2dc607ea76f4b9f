import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { MAX_DELIVERY_ROUNDS } from '../../src/domain/webhooks/delivery-status';
import { eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';
import { sendEventAccepted } from '../support/send-event';

/** Bounds on what one delivery, one event list page and one broken configuration can cost. */
describe('delivery bounds', () => {
  const fixture = receivingPlatform();
  const setUp = (respond: () => { status: number } = () => ({ status: 200 })) => fixture.subscribe(() => respond(), { path: '/bounds' });

  it('an attempt whose signing secret this worker cannot open is a recorded failed attempt, and the schedule goes on', async () => {
    const { api, endpoint, accountId, receiver } = await setUp();
    const stored = await fixture.platform.repositories.endpoints.find(accountId, endpoint.id);
    // As if the API had sealed it with another SECRETS_ENCRYPTION_KEY than this worker's.
    await fixture.platform.repositories.endpoints.update(stored!, { secret_sealed: 'v1.c2VhbGVkLWVsc2V3aGVyZQ.c2VhbGVkLWVsc2V3aGVyZQ.c2VhbGVkLWVsc2V3aGVyZQ' }, new Date());
    const id = (await sendEventAccepted(api, { type: 'secret.broken', data: {} })).body.id;
    const delivery = await eventually(async () => {
      const d = (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0];
      return d.attempt_count >= 2 ? d : undefined;
    }, 20_000);
    expect(delivery.status).toBe('retrying');
    expect(delivery.attempts[0].error).toContain('SECRETS_ENCRYPTION_KEY');
    expect(delivery.attempts[0].status_code).toBeNull();
    expect(receiver.received).toHaveLength(0);
  });

  it(`a delivery has at most ${MAX_DELIVERY_ROUNDS} rounds: a retry past that is refused with 409 and changes nothing`, async () => {
    const { api, endpoint, accountId } = await setUp(() => ({ status: 500 }));
    const id = (await sendEventAccepted(api, { type: 'rounds.capped', data: {} })).body.id;
    await eventually(async () => (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0].status === 'retrying' || undefined);
    await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: true });
    await eventually(async () => (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0].status === 'cancelled' || undefined);
    await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: false });
    // The delivery as it stands after its last allowed round ended.
    const ref = { id: deliveryId(id, endpoint.id), account_id: accountId, event_id: id, endpoint_id: endpoint.id };
    await fixture.platform.repositories.deliveries.setState(ref, { round: MAX_DELIVERY_ROUNDS, status: 'failed', attempt_count: 8, next_attempt_at: null }, new Date());
    const refused = await api.post(`/api/v1/webhooks/events/${id}/deliveries/${endpoint.id}/retry`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('delivery_round_limit');
    const after = (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0];
    expect(after).toMatchObject({ round: MAX_DELIVERY_ROUNDS, status: 'failed' });
  });

  it('an event list page ends early, with a cursor, once it carries 1 MiB of event data', async () => {
    const { api } = await setUp();
    const big = 'x'.repeat(250 * 1024);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await sendEventAccepted(api, { type: 'big.event', data: { big, i } })).body.id);
    const first = await api.get('/api/v1/webhooks/events?limit=10');
    expect(first.status).toBe(200);
    expect(first.body.data.map((e: { id: number }) => e.id)).toEqual(ids.slice(1).reverse());
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api.get(`/api/v1/webhooks/events?limit=10&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.data.map((e: { id: number }) => e.id)).toEqual([ids[0]]);
    expect(second.body.next_cursor).toBeNull();
  });
});

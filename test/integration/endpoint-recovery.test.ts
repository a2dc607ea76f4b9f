import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { DashboardClient, GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { holdMethod } from '../support/gate';
import { apiClient, createAccountWithKey, eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';

/**
 * POST /api/v1/webhooks/endpoints/{id}/recover, on the platform as `npm start` wires it. A failed
 * delivery takes 26 h of retries, so most deliveries recovered here are cancelled ones (the endpoint
 * was disabled while they retried, as the auto-disable rule does); one is left as its last failed
 * attempt leaves it.
 */
describe('bulk recovery of an endpoint', () => {
  const fixture = receivingPlatform();

  /** An endpoint with one succeeded delivery and `count` cancelled ones; its receiver now answers 200. */
  async function endpointWithCancelledDeliveries(count: number) {
    let failing = false;
    const { api, endpoint, accountId } = await fixture.subscribe(() => ({ status: failing ? 500 : 200 }), { path: '/hook' });
    const event = (type: string) => api.post('/api/v1/webhooks/events', { type, data: {} });
    const delivery = async (id: number) => (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0];
    const succeeded = (await event('recover.ok')).body.id as number;
    await eventually(async () => (await delivery(succeeded)).status === 'succeeded' || undefined);
    failing = true;
    const cancelled: number[] = [];
    for (let i = 0; i < count; i++) cancelled.push((await event('recover.me')).body.id);
    await eventually(async () => (await Promise.all(cancelled.map(delivery))).every((d) => d.status === 'retrying') || undefined);
    await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: true });
    await eventually(async () => (await Promise.all(cancelled.map(delivery))).every((d) => d.status === 'cancelled') || undefined);
    await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: false });
    failing = false;
    return { api, accountId, endpoint, succeeded, cancelled, delivery };
  }

  const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

  it('starts a new round of every cancelled or failed delivery since the time and answers 202 with their count', async () => {
    const { api, endpoint, succeeded, cancelled, delivery } = await endpointWithCancelledDeliveries(3);
    const res = await api.post(`/api/v1/webhooks/endpoints/${endpoint.id}/recover`, { since: hourAgo() });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: `recover-${endpoint.id}`, endpoint_id: endpoint.id, count: 3 });
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
    await eventually(async () => (await Promise.all(cancelled.map(delivery))).every((d) => d.status === 'succeeded' && d.round === 2) || undefined);
    expect(await delivery(succeeded)).toMatchObject({ status: 'succeeded', round: 1 });
    // Its own workflow, visible in the Temporal UI.
    const description = await fixture.platform.temporal.workflow.getHandle(`recover-${endpoint.id}`).describe();
    expect(description.type).toBe('recoveryWorkflow');
  });

  it('recovers a delivery whose schedule ended failed', async () => {
    const { api, accountId, endpoint, cancelled, delivery } = await endpointWithCancelledDeliveries(1);
    const eventId = cancelled[0];
    // 26 h of retries are not run here: the record is left as the last attempt's activity leaves it.
    await fixture.platform.repositories.deliveries.setState(
      { id: deliveryId(eventId, endpoint.id), account_id: accountId, event_id: eventId, endpoint_id: endpoint.id },
      { round: 1, status: 'failed', attempt_count: 8, next_attempt_at: null },
      new Date(),
    );
    expect(await delivery(eventId)).toMatchObject({ status: 'failed', round: 1 });
    const res = await api.post(`/api/v1/webhooks/endpoints/${endpoint.id}/recover`, { since: hourAgo() });
    expect(res.status).toBe(202);
    expect(res.body.count).toBe(1);
    await eventually(async () => (await delivery(eventId)).status === 'succeeded' || undefined);
    expect(await delivery(eventId)).toMatchObject({ status: 'succeeded', round: 2 });
  });

  it('leaves out deliveries first attempted before `since`', async () => {
    const { api, endpoint, cancelled, delivery } = await endpointWithCancelledDeliveries(1);
    const res = await api.post(`/api/v1/webhooks/endpoints/${endpoint.id}/recover`, { since: new Date().toISOString() });
    expect(res.body.count).toBe(0);
    expect(await delivery(cancelled[0])).toMatchObject({ status: 'cancelled', round: 1 });
  });

  it('answers the same recovery while it runs, and starts each delivery once', async () => {
    const { api, endpoint, cancelled, delivery } = await endpointWithCancelledDeliveries(2);
    const retries = holdMethod(fixture.platform.services.events, 'retry');
    try {
      const first = await api.post(`/api/v1/webhooks/endpoints/${endpoint.id}/recover`, { since: hourAgo() });
      await retries.reached;
      const second = await api.post(`/api/v1/webhooks/endpoints/${endpoint.id}/recover`, { since: new Date(Date.now() - 60_000).toISOString() });
      expect(second.status).toBe(202);
      expect(second.body).toEqual(first.body);
      expect(first.body.count).toBe(2);
    } finally {
      retries.open();
      retries.restore();
    }
    await eventually(async () => (await Promise.all(cancelled.map(delivery))).every((d) => d.status === 'succeeded') || undefined);
    expect((await Promise.all(cancelled.map(delivery))).map((d) => d.round)).toEqual([2, 2]);
  });

  it.each([
    ['not a time', { since: 'yesterday' }, 'invalid_request'],
    ['missing', {}, 'invalid_request'],
    ['in the future', { since: new Date(Date.now() + 3_600_000).toISOString() }, 'invalid_since'],
    ['more than 7 days back', { since: new Date(Date.now() - 8 * 24 * 3_600_000).toISOString() }, 'invalid_since'],
  ])('refuses `since` %s with a 400 JSON error naming it', async (_case, body, code) => {
    const account = await createAccountWithKey(fixture.platform);
    const api = apiClient(fixture.platform, account.key);
    const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/hook' })).body;
    const res = await api.post(`/api/v1/webhooks/endpoints/${endpoint.id}/recover`, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.any(String), code, details: [expect.objectContaining({ path: 'since' })] });
  });

  it('refuses a `since` without Z or an offset (a naive datetime) saying what is missing', async () => {
    const api = apiClient(fixture.platform, (await createAccountWithKey(fixture.platform)).key);
    const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/hook' })).body;
    const naive = new Date(Date.now() - 3_600_000).toISOString().replace(/Z$/, '');
    const res = await api.post(`/api/v1/webhooks/endpoints/${endpoint.id}/recover`, { since: naive });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'since must be an ISO 8601 date-time with Z or an offset such as +02:00.',
      code: 'invalid_request',
      details: [{ path: 'since', message: 'must be an ISO 8601 date-time with Z or an offset such as +02:00' }],
    });
  });

  it("answers 404 for another account's endpoint", async () => {
    const owner = apiClient(fixture.platform, (await createAccountWithKey(fixture.platform)).key);
    const endpoint = (await owner.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/hook' })).body;
    const other = apiClient(fixture.platform, (await createAccountWithKey(fixture.platform)).key);
    expect((await other.post(`/api/v1/webhooks/endpoints/${endpoint.id}/recover`, { since: hourAgo() })).status).toBe(404);
  });

  it('refuses a disabled endpoint with 409 until it is enabled', async () => {
    const account = await createAccountWithKey(fixture.platform);
    const api = apiClient(fixture.platform, account.key);
    const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/hook' })).body;
    await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: true });
    const res = await api.post(`/api/v1/webhooks/endpoints/${endpoint.id}/recover`, { since: hourAgo() });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('endpoint_disabled');
  });

  it('is offered on the dashboard endpoint page, with its CSRF token, and refuses a time too far back there too', async () => {
    const receiver = await fixture.receiver();
    const client = DashboardClient.fromNewIp(fixture.platform.apiUrl!);
    await client.signUp(newEmail(), GOOD_PASSWORD);
    const created = await client.submit('/dashboard/endpoints', '/dashboard/endpoints', { url: `${receiver.url}/hook`, events: '*', description: '' });
    const pagePath = created.location!.split('?')[0];
    expect((await client.get(pagePath)).text).toContain(`action="${pagePath}/recover"`);
    const withoutToken = await client.post(`${pagePath}/recover`, { since: '2026-01-01T00:00' });
    expect(withoutToken.status).toBe(403);
    const started = await client.submit(pagePath, `${pagePath}/recover`, { since: new Date(Date.now() - 3_600_000).toISOString().slice(0, 16) });
    expect(started.status).toBe(303);
    expect(started.location).toContain('notice=recovery-started');
    const refused = await client.submit(pagePath, `${pagePath}/recover`, { since: '2020-01-01T00:00' });
    expect(refused.status).toBe(400);
    // Shown with the recovery form, not with the Edit form below it.
    const recoverCard = refused.text.slice(refused.text.indexOf('id="recover-heading"'), refused.text.indexOf('id="edit-heading"'));
    expect(recoverCard).toContain('within the last 7 days');
  });
});

import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { shouldDisableForFailures } from '../../src/domain/webhooks/endpoint-health';
import { DashboardClient, GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { deliveryClosed } from '../support/delivery-workflows';
import { apiClient, eventually } from '../support/platform';
import type { Reply } from '../support/receiver';
import { receivingPlatform } from '../support/receiving-platform';

/**
 * docs/delivery.md "Endpoint health", on the platform as `npm start` wires it (real Temporal, the embedded
 * store, HTTPS receivers on 127.0.0.1). Failed deliveries take 26 h of retries: they, and the
 * auto-disable rule, are shown on the time-skipping server (test/workflow/endpoint-health.test.ts).
 */
describe('endpoint health', () => {
  const fixture = receivingPlatform();
  const endpointWith = (respond: (index: number) => Reply = () => ({ status: 200 })) => fixture.subscribe(respond, { path: '/hook' });

  async function delivered(api: ReturnType<typeof apiClient>, eventIds: number[]): Promise<void> {
    await eventually(async () => {
      const events = await Promise.all(eventIds.map(async (id) => (await api.get(`/api/v1/webhooks/events/${id}`)).body));
      return events.every((e) => e.status === 'delivered') || undefined;
    }, 60_000);
  }

  /** A delivery's fact is written right after its last attempt is recorded (and so after the event reads `delivered`). */
  async function healthOf(api: ReturnType<typeof apiClient>, id: string, until: (health: any) => boolean) {
    return eventually(async () => {
      const { health } = (await api.get(`/api/v1/webhooks/endpoints/${id}`)).body;
      return until(health) ? health : undefined;
    }, 30_000);
  }

  async function send(api: ReturnType<typeof apiClient>, count: number): Promise<number[]> {
    const sent = await Promise.all(Array.from({ length: count }, () => api.post('/api/v1/webhooks/events', { type: 'health.check', data: {} })));
    // A burst this size is far below capacity: an idle platform accepts all of it (no 503 overloaded).
    expect(sent.map((r) => r.status)).toEqual(sent.map(() => 202));
    return sent.map((r) => r.body.id as number);
  }

  it('shows a new endpoint with no deliveries yet and no disabled reason', async () => {
    const { api, endpoint } = await endpointWith();
    const empty = { succeeded_24h: 0, failed_24h: 0, last_success_at: null, last_failure_at: null, consecutive_failures: 0, failing_since: null };
    expect(endpoint).toMatchObject({ disabled: false, disabled_reason: null, health: empty });
    expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body).toMatchObject({ disabled_reason: null, health: empty });
    expect((await api.get('/api/v1/webhooks/endpoints')).body.data[0]).toMatchObject({ id: endpoint.id, disabled_reason: null, health: empty });
  });

  it('counts each delivery that succeeded in the last 24 h and shows when the last one ended', async () => {
    const { api, endpoint } = await endpointWith();
    const before = Date.now();
    await delivered(api, await send(api, 3));
    const health = await healthOf(api, endpoint.id, (h) => h.succeeded_24h === 3);
    expect(health).toMatchObject({ succeeded_24h: 3, failed_24h: 0, last_failure_at: null, consecutive_failures: 0 });
    expect(Date.parse(health.last_success_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(health.last_success_at)).toBeLessThanOrEqual(Date.now());
  });

  it('counts a delivery once, as a success, when its first attempt failed and a retry succeeded', async () => {
    const { api, endpoint, receiver } = await endpointWith((i) => ({ status: i === 0 ? 500 : 200 }));
    await delivered(api, await send(api, 1));
    expect(receiver.received).toHaveLength(2);
    expect(await healthOf(api, endpoint.id, (h) => h.succeeded_24h > 0)).toMatchObject({ succeeded_24h: 1, failed_24h: 0, consecutive_failures: 0 });
  });

  it('stays exact when many deliveries to one endpoint end at once in two worker processes', async () => {
    // Ingested through an API-only process, so no workflow starts eagerly on one worker: both
    // workers take workflow tasks (and so make first attempts) from the shared queue.
    await fixture.addWorker();
    const ingest = await fixture.addProcess({ api: true, worker: false });
    const { api, key, endpoint } = await endpointWith();
    const ids = await send(apiClient(ingest, key), 30);
    await delivered(api, ids);
    const workersThatDelivered = new Set<string>();
    for (const id of ids) {
      const history = await fixture.platform.temporal.workflow.getHandle(deliveryId(id, endpoint.id)).fetchHistory();
      for (const e of history.events ?? []) if (e.workflowTaskCompletedEventAttributes?.identity) workersThatDelivered.add(e.workflowTaskCompletedEventAttributes.identity);
    }
    expect(workersThatDelivered.size).toBe(2);
    await healthOf(api, endpoint.id, (h) => h.succeeded_24h >= 30);
    for (const id of ids) expect(await deliveryClosed(fixture.platform.temporal, id, endpoint.id)).toBe('COMPLETED');
    expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body.health).toMatchObject({ succeeded_24h: 30, failed_24h: 0 });
    // The list shows the same health as the single GET.
    expect((await api.get('/api/v1/webhooks/endpoints')).body.data[0].health).toMatchObject({ succeeded_24h: 30 });
    // The endpoint's one health document remembers each delivery's key once: none lost to a concurrent writer, none written twice.
    const stored = await fixture.platform.db.collection('endpoint_health').findOne({ _id: endpoint.id } as never);
    expect(new Set(stored?.recent_keys).size).toBe(30);
    expect(stored?.recent_keys).toHaveLength(30);
  });

  /** A delivery to the endpoint that ended failed six days ago (past the 5-day auto-disable period). */
  const failingSinceSixDays = (endpointId: string) =>
    fixture.platform.repositories.endpointHealth.record(endpointId, { kind: 'delivery', key: `old-${endpointId}#r1`, succeeded: false, at: new Date(Date.now() - 6 * 24 * 3600 * 1000) });

  it('an owner\'s re-enable that lands after an auto-disable was decided wins over it', async () => {
    const { api, endpoint, accountId } = await endpointWith();
    const { services, repositories } = fixture.platform;
    await failingSinceSixDays(endpoint.id);
    await services.endpoints.disableForFailures(accountId, endpoint.id, new Date());
    expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body).toMatchObject({ disabled: true, disabled_reason: 'failing' });
    // A delivery that was still in flight ends failed: its activity records that and the rule says
    // disable. That side is held here, between its decision and its call to disable.
    const failedAt = new Date();
    const decidedOn = await repositories.endpointHealth.record(endpoint.id, { kind: 'delivery', key: `late-${endpoint.id}#r1`, succeeded: false, at: failedAt });
    expect(shouldDisableForFailures(decidedOn, failedAt, services.endpoints.autoDisableAfterMs)).toBe(true);
    // Meanwhile the owner fixes the receiver and enables the endpoint again.
    expect((await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: false })).status).toBe(200);
    // The held side goes on.
    await services.endpoints.disableForFailures(accountId, endpoint.id, failedAt);
    expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body).toMatchObject({ disabled: false, disabled_reason: null });
  });

  it('marks an endpoint its owner disabled as `manual`, and enabling it clears the mark', async () => {
    const { api, endpoint } = await endpointWith();
    expect((await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: true })).body).toMatchObject({ disabled: true, disabled_reason: 'manual' });
    expect((await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: false })).body).toMatchObject({ disabled: false, disabled_reason: null });
  });

  it('shows the health on the dashboard, explains a failing endpoint, and enabling it there clears the mark', async () => {
    const receiver = await fixture.receiver();
    const client = DashboardClient.fromNewIp(fixture.platform.apiUrl!);
    const email = newEmail();
    await client.signUp(email, GOOD_PASSWORD);
    const created = await client.submit('/dashboard/endpoints', '/dashboard/endpoints', { url: `${receiver.url}/hook`, events: '*', description: '' });
    const pagePath = created.location!.split('?')[0];
    const id = decodeURIComponent(pagePath.split('/').pop()!);
    const healthy = await client.get(pagePath);
    expect(healthy.text).toContain('Consecutive failed deliveries');
    expect(healthy.text).not.toContain('data-testid="endpoint-failing"');

    // What the delivery activity does once the rule says so (the rule itself: test/workflow/endpoint-health.test.ts).
    const account = await fixture.platform.db.collection('accounts').findOne({ email });
    await failingSinceSixDays(id);
    await fixture.platform.services.endpoints.disableForFailures(String(account!._id), id, new Date());
    const failing = await client.get(pagePath);
    expect(failing.text).toContain('data-testid="endpoint-failing"');
    expect(failing.text).toContain('because its deliveries kept failing');
    expect(failing.text).toContain('5 days');

    const enabled = await client.submit(pagePath, `${pagePath}/enable`, {});
    expect(enabled.status).toBe(303);
    expect((await client.get(pagePath)).text).not.toContain('data-testid="endpoint-failing"');
    expect(await fixture.platform.services.endpoints.get(String(account!._id), id)).toMatchObject({ disabled: false, disabled_reason: null });
  });
});

import { WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import type { Platform } from '../../src/main/platform';
import { RETRY_NOW_ANSWER_MS } from '../../src/services/event-service';
import { waitsBefore } from '../support/delivery-workflows';
import type { DashboardClient } from '../support/dashboard-client';
import { signedUpWithKey } from '../support/dashboard-user';
import { apiClient, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { sendEventAccepted } from '../support/send-event';

/**
 * An update to a delivery's workflow is answered by a worker. With every worker stopped (killed, or all busy), retry now
 * answers 503 once RETRY_NOW_ANSWER_MS has passed (on the dashboard's pages too), and a handed-off attempt's report
 * gives up at its deadline, instead of waiting for as long as no worker comes.
 */
describe('updates to a delivery while no worker runs', () => {
  let api: Platform;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let client: ReturnType<typeof apiClient>;
  let dashboard: DashboardClient;
  let endpointId: string;
  let eventId: number;

  beforeAll(async () => {
    api = await startTestPlatform({ roles: { api: true, worker: false } });
    receiver = await startReceiver(() => ({ status: 500 }));
    ({ api: client, client: dashboard } = await signedUpWithKey(api));
    endpointId = (await client.post('/api/v1/webhooks/endpoints', { url: receiver.url })).body.id;
    // A worker makes the first three attempts (0, 1 s, 5 s), then stops while the delivery waits 30 s for the fourth.
    const worker = await startTestPlatform({ sameAs: api, roles: { api: false, worker: true } });
    try {
      eventId = (await sendEventAccepted(client, { type: 'order.created', data: {} })).body.id;
      await eventually(() => waitsBefore(api.temporal, deliveryId(eventId, endpointId), 4), 60_000);
    } finally {
      await worker.stop();
    }
  }, 90_000);
  afterAll(async () => {
    await receiver?.close();
    await api?.stop();
  });

  it(`answers 503 service_unavailable with Retry-After after ${RETRY_NOW_ANSWER_MS / 1000} s, for one delivery`, async () => {
    const res = await client.post(`/api/v1/webhooks/events/${eventId}/deliveries/${endpointId}/retry-now`);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('service_unavailable');
    expect(res.headers.get('retry-after')).toBe('1');
  }, 60_000);

  it("answers 503 service_unavailable for an endpoint's waiting deliveries too", async () => {
    const res = await client.post(`/api/v1/webhooks/endpoints/${endpointId}/retry-now`);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('service_unavailable');
  }, 60_000);

  it("a handed-off attempt's report fails once its deadline has passed", async () => {
    const run = { workflowId: deliveryId(eventId, endpointId) };
    const report = api.services.scheduler.reportOutcome(run, { round: 1, attempt: 4 }, Date.now() + 2_000);
    await expect(report).rejects.toBeInstanceOf(WorkflowUpdateRPCTimeoutOrCancelledError);
  }, 60_000);

  it('is shown on the event page when pressed in the dashboard, with its status', async () => {
    const page = `/dashboard/events/${eventId}`;
    const res = await dashboard.submit(page, `${page}/deliveries/${endpointId}/retry-now`, {});
    expect(res.status).toBe(503);
    expect(res.text).toContain(`<h1>Event #${eventId}</h1>`);
    expect(res.text).toContain('did not take the retry now within 10 s');
  }, 60_000);

  it('is shown on the endpoint page when "retry all waiting now" is pressed, with its status', async () => {
    const page = `/dashboard/endpoints/${endpointId}`;
    const res = await dashboard.submit(page, `${page}/retry-now`, {});
    expect(res.status).toBe(503);
    expect(res.text).toContain(`Endpoint <code>${endpointId}</code>`);
    expect(res.text).toContain('did not take the retry now within 10 s');
  }, 60_000);
});

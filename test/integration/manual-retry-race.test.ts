import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import type { Platform } from '../../src/main/platform';
import { holdMethod } from '../support/gate';
import { ApiResponse, apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { sendEventAccepted } from '../support/send-event';

/**
 * Two manual retries of the same delivery at once. The second arrives
 * while the first has written its round but not yet started its workflow (the record says
 * pending, no workflow runs): it must not start that round a second time.
 */
describe('concurrent manual retries of one delivery', () => {
  let platform: Platform;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let failing = true;

  beforeAll(async () => {
    platform = await startTestPlatform();
    receiver = await startReceiver(() => (failing ? { status: 500 } : { status: 200 }));
  });
  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  });

  /** Waits until the delivery's latest run has closed: no later POST can come from it. */
  async function closed(workflowId: string) {
    const handle = platform.temporal.workflow.getHandle(workflowId);
    await eventually(async () => (await handle.describe()).status.name !== 'RUNNING' || undefined, 30_000);
  }

  it('run the new round once: the second caller, arriving between the first one writing the round and starting it, gets 409', async () => {
    const api = apiClient(platform, (await createAccountWithKey(platform)).key);
    const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/retry-race` })).body;
    const id = (await sendEventAccepted(api, { type: 'retry.race', data: {} })).body.id as number;
    const workflowId = deliveryId(id, endpoint.id);
    // Round 1 fails once, then is cancelled by disabling the endpoint: a retryable delivery.
    await eventually(async () => (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0].status === 'retrying' || undefined);
    await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: true });
    await eventually(async () => (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0].status === 'cancelled' || undefined);
    await closed(workflowId);
    await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: false });
    failing = false;
    const before = receiver.received.length;

    const retryPath = `/api/v1/webhooks/events/${id}/deliveries/${endpoint.id}/retry`;
    // The first caller is held after writing round 2 (startRound), before its workflow starts.
    const gate = holdMethod(platform.services.scheduler, 'start', { when: (_delivery, options: { manualRetry: boolean }) => options.manualRetry });
    let first: Promise<ApiResponse> | undefined;
    let second: ApiResponse;
    try {
      first = api.post(retryPath);
      await gate.reached;
      second = await api.post(retryPath);
      // If the second caller started a run, let it finish before the first caller's start lands.
      await closed(workflowId);
    } finally {
      gate.open();
      gate.restore();
    }
    const firstAnswer = await first;
    await closed(workflowId);

    expect(firstAnswer.status).toBe(202);
    expect(firstAnswer.body).toMatchObject({ round: 2, status: 'pending' });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('delivery_in_flight');
    expect(receiver.received.length - before).toBe(1);
    const delivery = (await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries[0];
    expect(delivery.attempts.filter((a: { round: number }) => a.round === 2)).toHaveLength(1);
  }, 90_000);
});

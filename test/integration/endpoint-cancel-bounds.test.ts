import type { CommandStartedEvent } from 'mongodb';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import type { Platform } from '../../src/main/platform';
import { CANCEL_CONCURRENCY, CANCEL_PAGE_SIZE } from '../../src/services/endpoint-service';
import { apiClient, createAccountWithKey, startTestPlatform } from '../support/platform';

/**
 * docs/delivery.md "Bounded cost of the controls": disable and delete read the endpoint's pending and
 * retrying deliveries as ids only, a page at a time, and cancel them a few at a time; a PATCH that
 * does not change `disabled` reads and cancels nothing. Counted on the platform's own store client
 * and its scheduler, against the real store and Temporal.
 */
describe('disable and delete: bounded cost of cancelling an endpoint’s deliveries', () => {
  let platform: Platform;
  const finds: Array<{ name: string; command: Record<string, unknown> }> = [];
  const cancels: string[] = [];
  let open = 0;
  let mostOpen = 0;

  beforeAll(async () => {
    platform = await startTestPlatform();
    platform.mongo.on('commandStarted', (e: CommandStartedEvent) => {
      const command = e.command as Record<string, unknown>;
      if ((e.commandName === 'find' && command.find === 'deliveries') || (e.commandName === 'getMore' && command.collection === 'deliveries')) finds.push({ name: e.commandName, command });
    });
    const scheduler = platform.services.scheduler;
    const cancel = scheduler.cancel.bind(scheduler);
    scheduler.cancel = async (workflowId: string) => {
      cancels.push(workflowId);
      mostOpen = Math.max(mostOpen, ++open);
      try {
        return await cancel(workflowId);
      } finally {
        open--;
      }
    };
  });
  afterAll(async () => {
    await platform?.stop();
  });

  beforeEach(() => {
    finds.length = 0;
    cancels.length = 0;
    mostOpen = 0;
  });

  /** An endpoint with `count` deliveries recorded as waiting to retry (their runs are not there: each cancel finds none). */
  async function endpointWithWaiting(count: number) {
    const api = apiClient(platform, (await createAccountWithKey(platform)).key);
    const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/hook' })).body;
    const at = new Date();
    const ids = Array.from({ length: count }, (_, i) => deliveryId(i + 1, endpoint.id));
    await Promise.all(
      ids.map((id, i) =>
        platform.repositories.deliveries.recordAttempt(
          { id, account_id: 'acct_cancel_bounds', event_id: i + 1, endpoint_id: endpoint.id },
          // A response body as large as is kept: what reading the records whole would carry.
          { round: 1, attempt: 1, started_at: at, duration_ms: 5, status_code: 500, error: null, response_body: 'x'.repeat(4096), succeeded: false },
          { round: 1, status: i % 2 === 0 ? 'retrying' : 'pending', attempt_count: 1, next_attempt_at: at, url: endpoint.url },
          at,
        ),
      ),
    );
    return { api, endpoint, ids };
  }

  const count = 2 * CANCEL_PAGE_SIZE + 7;

  it('DELETE reads ids only, a page at a time, and cancels every delivery with at most CANCEL_CONCURRENCY cancels at once', async () => {
    const { api, endpoint, ids } = await endpointWithWaiting(count);
    expect((await api.delete(`/api/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(204);

    expect([...cancels].sort()).toEqual([...ids].sort());
    expect(mostOpen).toBeLessThanOrEqual(CANCEL_CONCURRENCY);
    const reads = finds.filter((f) => f.name === 'find');
    expect(reads).toHaveLength(1);
    expect(reads[0]!.command).toMatchObject({ projection: { _id: 1 }, batchSize: CANCEL_PAGE_SIZE });
    // The rest came page by page from the same cursor.
    expect(finds.filter((f) => f.name === 'getMore').length).toBeGreaterThanOrEqual(2);
    for (const more of finds.filter((f) => f.name === 'getMore')) expect(Number(more.command.batchSize)).toBeLessThanOrEqual(CANCEL_PAGE_SIZE);
  }, 120_000);

  it('PATCH {disabled: true} cancels the same way', async () => {
    const { api, endpoint, ids } = await endpointWithWaiting(count);
    const disabled = await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ disabled: true, disabled_reason: 'manual' });
    expect([...cancels].sort()).toEqual([...ids].sort());
    expect(mostOpen).toBeLessThanOrEqual(CANCEL_CONCURRENCY);
    expect(finds.filter((f) => f.name === 'find').map((f) => f.command.projection)).toEqual([{ _id: 1 }]);
  }, 120_000);

  it('PATCH {disabled: true} on an endpoint disabled already reads no delivery and cancels nothing', async () => {
    const { api, endpoint } = await endpointWithWaiting(count);
    expect((await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: true })).status).toBe(200);
    // Left as they were (their runs would end them cancelled at their next attempt): what a repeat could read again.
    finds.length = 0;
    cancels.length = 0;
    const again = await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { disabled: true });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ disabled: true, disabled_reason: 'manual' });
    expect(finds).toEqual([]);
    expect(cancels).toEqual([]);
  }, 120_000);
});

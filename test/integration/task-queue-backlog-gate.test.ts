import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';

/**
 * An API process without a worker (as compose runs it) holds its deliveries' starts while the
 * delivery task queue's oldest task has waited longer than a start should (half a second): the
 * workers are behind, so the starts wait in its outbox, where accounts take turns.
 */
describe("an API process without a worker, behind the workers' backlog", () => {
  let apiOnly: Platform;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    apiOnly = await startTestPlatform({ roles: { api: true, worker: false } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await apiOnly?.stop();
    await receiver?.close();
  });

  it('holds new starts while a task waits in the queue, and starts them once a worker takes the queue', async () => {
    const { key } = await createAccountWithKey(apiOnly);
    const api = apiClient(apiOnly, key);
    expect((await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/hook`, events: ['*'] })).status).toBe(201);
    const backlog = apiOnly.services.taskQueueBacklog!;

    // No worker polls this process's task queue: the first event's workflow task waits there.
    const first = await api.post('/api/v1/webhooks/events', { type: 'gate.first', data: {} });
    expect(first.status).toBe(202);
    await eventually(async () => (apiOnly.services.outbox.backlog === 0 && !backlog.isOpen() ? true : undefined));

    const second = await api.post('/api/v1/webhooks/events', { type: 'gate.second', data: {} });
    expect(second.status).toBe(202);
    // Six readings of the backlog later, the second event's start still waits in the outbox.
    for (let reading = 0; reading < 6; reading++) {
      await backlog.refresh();
      expect(backlog.isOpen()).toBe(false);
      expect(apiOnly.services.outbox.backlog).toBe(1);
    }

    const worker = await startTestPlatform({ sameAs: apiOnly, roles: { api: false, worker: true } });
    try {
      await eventually(async () => (receiver.received.length >= 2 ? true : undefined));
      const delivered = receiver.received.map((r) => JSON.parse(r.rawBody).id).sort();
      expect(delivered).toEqual([first.body.id, second.body.id].sort());
      expect(apiOnly.services.outbox.backlog).toBe(0);
    } finally {
      await worker.stop();
    }
  });
});

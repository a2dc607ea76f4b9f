import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';

/**
 * An API process without a worker (as compose runs it) sees the workers only through their task
 * queue's backlog. While its oldest task has waited longer than a start should (half a second),
 * the process starts only the deliveries of accounts below an equal share; the others wait in its
 * outbox, where admission refuses them, until the backlog is young again.
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

  it("holds the starts of an account at its share, starts a lighter account's, and starts the rest once a worker takes the queue", async () => {
    const accounts = [await createAccountWithKey(apiOnly), await createAccountWithKey(apiOnly)];
    const [heavy, light] = accounts.map(({ key }) => apiClient(apiOnly, key));
    for (const api of [heavy, light]) expect((await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/hook`, events: ['*'] })).status).toBe(201);
    const { outbox } = apiOnly.services;
    const backlog = apiOnly.services.taskQueueBacklog!;

    // No worker polls this process's task queue: the first event's workflow task waits there.
    const first = await heavy.post('/api/v1/webhooks/events', { type: 'gate.first', data: {} });
    expect(first.status).toBe(202);
    await eventually(async () => (outbox.backlog === 0 && !backlog.isOpen() ? true : undefined));

    const held = await heavy.post('/api/v1/webhooks/events', { type: 'gate.held', data: {} });
    expect(held.status).toBe(202);
    const lighter = await light.post('/api/v1/webhooks/events', { type: 'gate.light', data: {} });
    expect(lighter.status).toBe(202);
    // The lighter account's start is made; six readings of the backlog later, the heavy one's still waits.
    await eventually(async () => (outbox.backlog === 1 ? true : undefined));
    for (let reading = 0; reading < 6; reading++) {
      await backlog.refresh();
      expect(backlog.isOpen()).toBe(false);
      expect(outbox.backlog).toBe(1);
      expect(outbox.accountWaitMs(accounts[0].accountId)).toBeGreaterThan(0);
    }

    const worker = await startTestPlatform({ sameAs: apiOnly, roles: { api: false, worker: true } });
    try {
      await eventually(async () => (receiver.received.length >= 3 ? true : undefined));
      const delivered = receiver.received.map((r) => JSON.parse(r.rawBody).id).sort();
      expect(delivered).toEqual([first.body.id, held.body.id, lighter.body.id].sort());
      expect(outbox.backlog).toBe(0);
    } finally {
      await worker.stop();
    }
  });
});

import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, startTestPlatform } from './platform';
import { Reply, startReceiver } from './receiver';

/**
 * For a describe block: one platform with both roles (and `env` on top of the tests' own), started before its tests and stopped after
 * them with every receiver and extra worker they opened. `receiver` opens an HTTPS receiver that
 * answers the n-th request with `respond(n)`; `subscribe` makes an account with a key, and one
 * endpoint to a new such receiver; `addWorker` starts a second worker process on the same servers (`addProcess`: any roles).
 */
export function receivingPlatform(env: Record<string, string> = {}) {
  const receivers: Array<{ close(): Promise<void> }> = [];
  const workers: Platform[] = [];
  const fixture = {
    platform: undefined as unknown as Platform,
    async receiver(respond: (index: number) => Reply = () => ({ status: 200 })) {
      const receiver = await startReceiver((_req, i) => respond(i));
      receivers.push(receiver);
      return receiver;
    },
    async subscribe(respond: (index: number) => Reply, endpoint: { path: string; events?: string[] }) {
      const receiver = await fixture.receiver(respond);
      const { key, accountId } = await createAccountWithKey(fixture.platform);
      const api = apiClient(fixture.platform, key);
      const body = { url: `${receiver.url}${endpoint.path}`, ...(endpoint.events ? { events: endpoint.events } : {}) };
      return { receiver, api, key, endpoint: (await api.post('/api/v1/webhooks/endpoints', body)).body, accountId };
    },
    async addWorker() {
      return fixture.addProcess({ api: false, worker: true });
    },
    /** Another process on the same servers with these roles (a second worker, an API-only process). */
    async addProcess(roles: { api: boolean; worker: boolean }) {
      const other = await startTestPlatform({ sameAs: fixture.platform, roles });
      workers.push(other);
      return other;
    },
  };
  beforeAll(async () => {
    fixture.platform = await startTestPlatform({ env });
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    for (const worker of workers) await worker.stop();
    await fixture.platform?.stop();
  });
  return fixture;
}

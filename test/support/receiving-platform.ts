import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, startTestPlatform } from './platform';
import { Reply, startReceiver } from './receiver';

/**
 * For a describe block: one platform with both roles, started before its tests and stopped after
 * them with every receiver they opened. `subscribe` makes an account with a key, and one endpoint
 * to a new HTTPS receiver that answers the n-th request with `respond(n)`.
 */
export function receivingPlatform() {
  const receivers: Array<{ close(): Promise<void> }> = [];
  const fixture = {
    platform: undefined as unknown as Platform,
    async subscribe(respond: (index: number) => Reply, endpoint: { path: string; events?: string[] }) {
      const receiver = await startReceiver((_req, i) => respond(i));
      receivers.push(receiver);
      const { key, accountId } = await createAccountWithKey(fixture.platform);
      const api = apiClient(fixture.platform, key);
      const body = { url: `${receiver.url}${endpoint.path}`, ...(endpoint.events ? { events: endpoint.events } : {}) };
      return { receiver, api, endpoint: (await api.post('/api/v1/webhooks/endpoints', body)).body, accountId };
    },
  };
  beforeAll(async () => {
    fixture.platform = await startTestPlatform();
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await fixture.platform?.stop();
  });
  return fixture;
}

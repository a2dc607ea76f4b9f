import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Platform } from '../../src/main/platform';
import { startFakeDns } from '../support/fake-dns';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';

/**
 * B's receiver: a socket that takes each connection and closes it. The test certificate names only
 * localhost and 127.0.0.1, which are never looked up, so a receiver reached through a name server
 * cannot complete TLS; what this shows is that B's attempt resolved its name and reached its
 * receiver, and was recorded, while A's lookups hung.
 */
async function startClosingReceiver() {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Long enough that account A's lookups are all still in flight while B's event is delivered. */
const DNS_TIMEOUT_MS = 20_000;
const BLACKHOLED = 64;

/**
 * delivery.md "Fairness between accounts": one account whose endpoints' names never resolve
 * must not take the delivery capacity of the others. Account A has 64 endpoints whose name server
 * stopped answering (as many as the process's DNS places); account B has one that answers.
 */
describe('delivery fairness between accounts', () => {
  let platform: Platform;
  let dns: Awaited<ReturnType<typeof startFakeDns>>;

  beforeAll(async () => {
    dns = await startFakeDns();
    platform = await startTestPlatform({ env: { DNS_SERVERS: dns.server, DNS_TIMEOUT_MS: String(DNS_TIMEOUT_MS), DNS_MAX_CONCURRENT: '64' } });
  });
  afterAll(async () => {
    await platform?.stop();
    await dns?.close();
  });

  it("delivers another account's event while one account's 64 endpoints never resolve", async () => {
    const receiver = await startClosingReceiver();
    const accountA = await createAccountWithKey(platform);
    const a = apiClient(platform, accountA.key);
    const b = apiClient(platform, (await createAccountWithKey(platform)).key);
    const blackholed = Array.from({ length: BLACKHOLED }, (_, i) => `blackholed-${i}.test`);
    try {
      // Registration resolves a name, and c-ares would keep the answer: A's endpoints are registered
      // at an address, then moved in the store to names that were never answered (a domain whose
      // name server went away after registration).
      const endpointsOfA: string[] = [];
      for (const name of blackholed) {
        const res = await a.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/hook' });
        expect(res.status).toBe(201);
        endpointsOfA.push(res.body.id);
        await platform.db.collection('endpoints').updateOne({ _id: res.body.id, account_id: accountA.accountId }, { $set: { url: `https://${name}:9/hook` } });
      }
      dns.answers.set('answerable.test', '127.0.0.1');
      expect((await b.post('/api/v1/webhooks/endpoints', { url: `https://answerable.test:${receiver.port}/hook` })).status).toBe(201);

      const eventOfA = await a.post('/api/v1/webhooks/events', { type: 'fairness.a', data: {} });
      expect(eventOfA.status).toBe(202);
      // A's attempts are under way: their lookups have reached the name server, and hang there.
      await eventually(async () => new Set(dns.questions.map((q) => q.name).filter((n) => n.startsWith('blackholed-'))).size >= 16);

      const eventOfB = await b.post('/api/v1/webhooks/events', { type: 'fairness.b', data: {} });
      expect(eventOfB.status).toBe(202);
      const firstOfB = await eventually(async () => (await b.get(`/api/v1/webhooks/events/${eventOfB.body.id}`)).body.deliveries?.[0]?.attempts?.[0], 60_000);
      const deliveriesOfA = (await a.get(`/api/v1/webhooks/events/${eventOfA.body.id}`)).body.deliveries as Array<{ attempts: unknown[] }>;
      // B's first attempt resolved its name and reached its receiver while every one of A's attempts still waited on DNS.
      expect(firstOfB).toMatchObject({ attempt: 1, status_code: null, error: expect.stringMatching(/^Connection failed/) });
      expect(receiver.connections()).toBeGreaterThanOrEqual(1);
      expect(deliveriesOfA).toHaveLength(BLACKHOLED);
      expect(deliveriesOfA.flatMap((d) => d.attempts)).toEqual([]);

      // Deleting A's endpoints cancels its deliveries, so nothing of A outlives the test.
      for (const id of endpointsOfA) expect((await a.delete(`/api/v1/webhooks/endpoints/${id}`)).status).toBe(204);
    } finally {
      await receiver.close();
    }
  });
});

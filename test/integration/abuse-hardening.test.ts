import { randomBytes } from 'node:crypto';
import type { Platform } from '../../src/main/platform';
import { MAX_LIVE_KEYS_PER_ACCOUNT } from '../../src/services/account-service';
import { MAX_JSON_DEPTH } from '../../src/transport/http/json-nesting';
import { DashboardClient, GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { startFakeDns } from '../support/fake-dns';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';

const MAX_ENDPOINTS = 5;
const DNS_TIMEOUT_MS = 1_000;

/** An address nobody would send for themselves: a new one per call. */
const randomIp = () => `${1 + (randomBytes(1)[0] as number) % 223}.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

/** `depth` nested objects around a number: {"a":{"a":...1...}}. */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/**
 * The ways one account or one anonymous caller could make the platform spend without
 * limit, lie, or stall. The platform sits behind one trusted proxy (TRUST_PROXY=true, one hop),
 * allows 5 endpoints per account, and resolves destination names through a local name server
 * that answers only what a test tells it to (the others never get an answer).
 */
describe('abuse and fault hardening', () => {
  let platform: Platform;
  let base: string;
  let dns: Awaited<ReturnType<typeof startFakeDns>>;

  beforeAll(async () => {
    dns = await startFakeDns();
    platform = await startTestPlatform({
      env: {
        TRUST_PROXY: 'true',
        MAX_ENDPOINTS_PER_ACCOUNT: String(MAX_ENDPOINTS),
        DNS_SERVERS: dns.server,
        DNS_TIMEOUT_MS: String(DNS_TIMEOUT_MS),
      },
    });
    base = platform.apiUrl!;
  });
  afterAll(async () => {
    await platform?.stop();
    await dns?.close();
  });

  /** A dashboard user (free tier: 10 calls a minute) with a `weh` key of the same account. */
  async function dashboardUser() {
    const client = DashboardClient.fromNewIp(base);
    const email = newEmail();
    expect((await client.signUp(email, GOOD_PASSWORD)).status).toBe(303);
    const account = (await platform.repositories.accounts.findByEmail(email))!;
    const { key } = await platform.services.accounts.createKey(account._id, 'weh', 'test');
    return { client, accountId: account._id, api: apiClient(platform, key) };
  }

  const countEndpoints = (accountId: string) => platform.db.collection('endpoints').countDocuments({ account_id: accountId });
  const countEvents = (accountId: string) => platform.db.collection('events').countDocuments({ account_id: accountId });

  describe('endpoints per account', () => {
    it(`allows ${MAX_ENDPOINTS} endpoints on the API, then answers 422 endpoint_limit_reached and stores nothing`, async () => {
      const { key, accountId } = await createAccountWithKey(platform);
      const api = apiClient(platform, key);
      const ids: string[] = [];
      for (let i = 0; i < MAX_ENDPOINTS; i++) {
        const res = await api.post('/api/v1/webhooks/endpoints', { url: `https://127.0.0.1:9/${i}` });
        expect(res.status).toBe(201);
        ids.push(res.body.id);
      }
      const refused = await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/one-more' });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({ error: expect.stringContaining(`(${MAX_ENDPOINTS})`), code: 'endpoint_limit_reached' });
      expect(await countEndpoints(accountId)).toBe(MAX_ENDPOINTS);
      // Disabled endpoints count too; a deleted one frees its place.
      expect((await api.patch(`/api/v1/webhooks/endpoints/${ids[0]}`, { disabled: true })).status).toBe(200);
      expect((await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/x' })).status).toBe(422);
      expect((await api.delete(`/api/v1/webhooks/endpoints/${ids[0]}`)).status).toBe(204);
      expect((await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/x' })).status).toBe(201);
    });

    it('never lets concurrent creates exceed the cap, and they fill it (in two processes: endpoint-store-writers.test.ts)', async () => {
      const { key, accountId } = await createAccountWithKey(platform);
      const api = apiClient(platform, key);
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => api.post('/api/v1/webhooks/endpoints', { url: `https://127.0.0.1:9/c${i}` })));
      const statuses = results.map((r) => r.status);
      expect(statuses.every((s) => s === 201 || s === 422)).toBe(true);
      expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_ENDPOINTS);
      expect(await countEndpoints(accountId)).toBe(MAX_ENDPOINTS);
    });

    it('applies the same cap to the dashboard, with the reason on the form', async () => {
      const { client, accountId } = await dashboardUser();
      for (let i = 0; i < MAX_ENDPOINTS; i++) await platform.services.endpoints.create(accountId, { url: `https://127.0.0.1:9/d${i}` });
      const res = await client.submit('/dashboard/endpoints', '/dashboard/endpoints', { url: 'https://127.0.0.1:9/more', events: '', description: '' });
      expect(res.status).toBe(422);
      expect(res.text).toContain(`already has the most endpoints it may have (${MAX_ENDPOINTS})`);
      expect(await countEndpoints(accountId)).toBe(MAX_ENDPOINTS);
    });
  });

  describe('dashboard writes are metered like API calls', () => {
    it('test events, endpoint changes and API calls share the burst window; a refused dashboard action changes nothing', async () => {
      const { client, accountId, api } = await dashboardUser();
      // Free tier: 10 calls a minute. 3 API calls + 2 endpoint registrations + 5 test events = 10.
      for (let i = 0; i < 3; i++) expect((await api.get('/api/v1/webhooks/endpoints')).status).toBe(200);
      for (let i = 0; i < 2; i++) {
        const res = await client.submit('/dashboard/endpoints', '/dashboard/endpoints', { url: `https://127.0.0.1:9/m${i}`, events: '', description: '' });
        expect(res.status).toBe(303);
      }
      for (let i = 0; i < 5; i++) {
        const res = await client.submit('/dashboard/events', '/dashboard/events', { type: 'test.sent', data: `{"i":${i}}` });
        expect(res.status).toBe(303);
      }
      expect(await countEvents(accountId)).toBe(5);

      const refused = await client.submit('/dashboard/events', '/dashboard/events', { type: 'test.sent', data: '{"i":99}' });
      expect(refused.status).toBe(429);
      expect(refused.text).toContain('Nothing was changed: this account has used its calls for this minute');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await countEvents(accountId)).toBe(5);

      const endpointRefused = await client.submit('/dashboard/endpoints', '/dashboard/endpoints', { url: 'https://127.0.0.1:9/late', events: '', description: '' });
      expect(endpointRefused.status).toBe(429);
      expect(await countEndpoints(accountId)).toBe(2);
      const [endpoint] = (await platform.services.endpoints.list(accountId, 10)).data;
      const deleteRefused = await client.submit(`/dashboard/endpoints/${endpoint!.id}/delete`, `/dashboard/endpoints/${endpoint!.id}/delete`, {});
      expect(deleteRefused.status).toBe(429);
      expect(await countEndpoints(accountId)).toBe(2);

      // And the API sees the same exhausted window.
      expect((await api.get('/api/v1/webhooks/endpoints')).status).toBe(429);
    });

    it('counts dashboard writes in the monthly quota the API reports', async () => {
      const { client, api } = await dashboardUser();
      expect((await client.submit('/dashboard/events', '/dashboard/events', { type: 'quota.check', data: '{}' })).status).toBe(303);
      const res = await api.get('/api/v1/webhooks/endpoints');
      expect(res.headers.get('x-quota-used')).toBe('2');
    });
  });

  describe('dashboard key management', () => {
    const countKeys = (accountId: string) => platform.db.collection('api_keys').countDocuments({ account_id: accountId });

    it('creating keys is metered: the 11th key form a minute (free tier) is 429 and changes nothing', async () => {
      const { client, accountId } = await dashboardUser();
      for (let i = 0; i < 10; i++) expect((await client.submit('/dashboard/keys', '/dashboard/keys', { product: 'weh', label: `k${i}` })).status).toBe(303);
      expect(await countKeys(accountId)).toBe(11);
      const refused = await client.submit('/dashboard/keys', '/dashboard/keys', { product: 'weh', label: 'one more' });
      expect(refused.status).toBe(429);
      expect(refused.text).toContain('Nothing was changed');
      expect(await countKeys(accountId)).toBe(11);
    });

    it('revoking a key is not metered: a leaked key that used up the minute\'s calls is still revoked', async () => {
      const { client, accountId, api } = await dashboardUser();
      for (let i = 0; i < 10; i++) expect((await api.get('/api/v1/webhooks/endpoints')).status).toBe(200);
      expect((await api.get('/api/v1/webhooks/endpoints')).status).toBe(429);
      const [leaked] = await platform.services.accounts.listKeys(accountId);
      expect((await client.submit('/dashboard/keys', `/dashboard/keys/${leaked!.id}/revoke`, {})).status).toBe(303);
      expect((await platform.services.accounts.listKeys(accountId)).find((k) => k.id === leaked!.id)!.revoked_at).not.toBeNull();
      expect((await api.get('/api/v1/webhooks/endpoints')).status).toBe(401);
    });

    it(`allows ${MAX_LIVE_KEYS_PER_ACCOUNT} live keys, then answers 422 key_limit_reached and stores nothing; a revoked key frees its place`, async () => {
      const { client, accountId } = await dashboardUser();
      for (let i = 1; i < MAX_LIVE_KEYS_PER_ACCOUNT; i++) await platform.services.accounts.createKey(accountId, 'weh', `bulk ${i}`);
      const refused = await client.submit('/dashboard/keys', '/dashboard/keys', { product: 'weh', label: 'over the cap' });
      expect(refused.status).toBe(422);
      expect(refused.text).toContain(`at most ${MAX_LIVE_KEYS_PER_ACCOUNT} live API keys`);
      await expect(platform.services.accounts.createKey(accountId, 'weh', 'over the cap')).rejects.toMatchObject({ code: 'key_limit_reached' });
      expect(await countKeys(accountId)).toBe(MAX_LIVE_KEYS_PER_ACCOUNT);
      const [newest] = await platform.services.accounts.listKeys(accountId);
      await platform.services.accounts.revokeKey(newest!.id, accountId);
      expect((await client.submit('/dashboard/keys', '/dashboard/keys', { product: 'weh', label: 'in its place' })).status).toBe(303);
    });

    it('never lets concurrent key creates exceed the cap', async () => {
      const { accountId } = await dashboardUser();
      for (let i = 1; i < MAX_LIVE_KEYS_PER_ACCOUNT - 3; i++) await platform.services.accounts.createKey(accountId, 'weh', `bulk ${i}`);
      const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => platform.services.accounts.createKey(accountId, 'weh', `race ${i}`)));
      expect(results.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(3);
      expect(results.every((r) => r.status === 'fulfilled' || (r.reason as { code?: string }).code === 'key_limit_reached')).toBe(true);
      expect(await countKeys(accountId)).toBeLessThanOrEqual(MAX_LIVE_KEYS_PER_ACCOUNT);
    });

    it('revoking a key revoked over a minute ago changes nothing and writes no cache-invalidations entry', async () => {
      const { client, accountId } = await dashboardUser();
      const [key] = await platform.services.accounts.listKeys(accountId);
      expect((await client.submit('/dashboard/keys', `/dashboard/keys/${key!.id}/revoke`, {})).status).toBe(303);
      const revokedAt = new Date(Date.now() - 120_000);
      await platform.db.collection('api_keys').updateOne({ _id: key!.id as never }, { $set: { revoked_at: revokedAt } });
      const entries = await platform.db.collection('cache_invalidations').countDocuments({});
      expect((await client.submit('/dashboard/keys', `/dashboard/keys/${key!.id}/revoke`, {})).status).toBe(303);
      expect(await platform.db.collection('cache_invalidations').countDocuments({})).toBe(entries);
      expect((await platform.db.collection('api_keys').findOne({ _id: key!.id as never }))!.revoked_at).toEqual(revokedAt);
    });
  });

  describe('TRUST_PROXY takes the address the trusted proxy appended', () => {
    /**
     * `count` calls, each with a made-up X-Forwarded-For entry of its own followed by the one
     * address the proxy appended (the same every time): the statuses in order.
     */
    async function spoofing(count: number, call: (headers: Record<string, string>, i: number) => Promise<number>): Promise<number[]> {
      const proxySaw = randomIp();
      const statuses: number[] = [];
      for (let i = 0; i < count; i++) statuses.push(await call({ 'X-Forwarded-For': `${randomIp()}, ${proxySaw}` }, i));
      return statuses;
    }
    const allowedThenRefused = (statuses: number[], allowed: number, status: number) => {
      expect(statuses.slice(0, allowed)).toEqual(Array.from({ length: allowed }, () => status));
      expect(statuses[allowed]).toBe(429);
    };

    it('a random X-Forwarded-For per request does not beat the anonymous estimator limit (30 a minute)', async () => {
      const statuses = await spoofing(31, async (headers) => {
        const res = await fetch(`${base}/api/cost-estimator?provider=aws&category=cdn`, { headers });
        await res.arrayBuffer();
        return res.status;
      });
      allowedThenRefused(statuses, 30, 200);
    });

    it('a random X-Forwarded-For per request does not beat the sign-in throttle (20 failures per address)', async () => {
      const statuses = await spoofing(21, async (headers, i) => (await new DashboardClient(base, headers).signIn(newEmail(), `guess number ${i}`)).status);
      allowedThenRefused(statuses, 20, 401);
    });

    it('a random X-Forwarded-For per request does not beat the sign-up throttle (20 per address)', async () => {
      const statuses = await spoofing(21, async (headers) => (await new DashboardClient(base, headers).signUp(newEmail(), GOOD_PASSWORD)).status);
      allowedThenRefused(statuses, 20, 303);
    });
  });

  describe('deeply nested JSON', () => {
    it('is refused with 400 json_too_deep at parse time, on the API and the estimator, never a 5xx', async () => {
      const { key } = await createAccountWithKey(platform);
      const api = apiClient(platform, key);
      const deep = `{"type":"deep.event","data":${nested(5_000)}}`;
      const res = await api.post('/api/v1/webhooks/events', deep);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: `Request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`,
        code: 'json_too_deep',
        details: [{ path: '', message: `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep` }],
      });
      // A 4xx is counted (unlike a 5xx, which gave its slot back and could be repeated without limit).
      expect(res.headers.get('x-quota-used')).toBe('1');
      const estimator = await fetch(`${base}/api/cost-estimator`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: `{"items":[${'['.repeat(10_000)}${']'.repeat(10_000)}]}` });
      expect(estimator.status).toBe(400);
      expect(((await estimator.json()) as { code: string }).code).toBe('json_too_deep');
    });

    it(`accepts exactly ${MAX_JSON_DEPTH} levels (the body object is level 1)`, async () => {
      const { key } = await createAccountWithKey(platform);
      const api = apiClient(platform, key);
      expect((await api.post('/api/v1/webhooks/events', `{"type":"deep.event","data":${nested(MAX_JSON_DEPTH - 1)}}`)).status).toBe(202);
      expect((await api.post('/api/v1/webhooks/events', `{"type":"deep.event","data":${nested(MAX_JSON_DEPTH)}}`)).status).toBe(400);
    });

    it('no operation of the OpenAPI document answers a deep, wide or oversized body with a 5xx', async () => {
      const { key } = await createAccountWithKey(platform);
      const api = apiClient(platform, key);
      const document = (await api.get('/openapi.json')).body;
      const wide = `{"type":"wide.event","items":[],"url":"https://127.0.0.1:9/","data":{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":${i}`).join(',')}}}`;
      const bodies = { deep: `{"type":"t","data":${nested(10_000)},"items":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, wide, oversized: `{"data":"${'x'.repeat(1_100_000)}"}` };
      const answers: string[] = [];
      for (const [path, operations] of Object.entries<Record<string, { requestBody?: unknown }>>(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          if (!operation.requestBody) continue;
          const url = path.replace('{event_id}', '1').replace(/\{[a-z_]+\}/g, 'ep_000000000000000000000000');
          for (const [kind, body] of Object.entries(bodies)) {
            const res = await api.call(method.toUpperCase(), url, body, { 'x-api-key': key });
            answers.push(`${method.toUpperCase()} ${path} ${kind} → ${res.status}`);
          }
        }
      }
      expect(answers.length).toBeGreaterThanOrEqual(9);
      expect(answers.filter((a) => / → 5\d\d$/.test(a))).toEqual([]);
    });

    it('is refused on the dashboard test-event form too', async () => {
      const { client, accountId } = await dashboardUser();
      const res = await client.submit('/dashboard/events', '/dashboard/events', { type: 'deep.event', data: nested(5_000) });
      expect(res.status).toBe(400);
      expect(res.text).toContain(`more than ${MAX_JSON_DEPTH} levels deep`);
      expect(await countEvents(accountId)).toBe(0);
    });
  });

  it('delivers a __proto__ key of data unchanged', async () => {
    const receiver = await startReceiver();
    try {
      const { key } = await createAccountWithKey(platform);
      const api = apiClient(platform, key);
      expect((await api.post('/api/v1/webhooks/endpoints', { url: receiver.url })).status).toBe(201);
      const res = await api.post('/api/v1/webhooks/events', '{"type":"t","data":{"__proto__":{"x":1},"a":1}}');
      expect(res.status).toBe(202);
      const delivered = await eventually(async () => receiver.received[0]);
      expect(delivered.rawBody).toContain('"data":{"__proto__":{"x":1},"a":1}');
      const data = JSON.parse(delivered.rawBody).data;
      expect(Object.keys(data)).toEqual(['__proto__', 'a']);
      const stored = await api.get(`/api/v1/webhooks/events/${res.body.id}`);
      expect(Object.keys(stored.body.data)).toEqual(['__proto__', 'a']);
    } finally {
      await receiver.close();
    }
  });

  describe('destination names that do not resolve in time', () => {
    it('registration answers 422 dns_timeout', async () => {
      const { key, accountId } = await createAccountWithKey(platform);
      const res = await apiClient(platform, key).post('/api/v1/webhooks/endpoints', { url: 'https://never-answered.test/hook' });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: `DNS lookup of never-answered.test timed out after ${DNS_TIMEOUT_MS / 1000} s.`, code: 'dns_timeout' });
      expect(await countEndpoints(accountId)).toBe(0);
    });

    it('an attempt whose lookup times out is a recorded failed attempt', async () => {
      const { key } = await createAccountWithKey(platform);
      const api = apiClient(platform, key);
      dns.answers.set('goes-quiet.test', '127.0.0.1');
      const endpoint = await api.post('/api/v1/webhooks/endpoints', { url: 'https://goes-quiet.test:9/hook' });
      expect(endpoint.status).toBe(201);
      dns.answers.delete('goes-quiet.test'); // the name server stops answering for it
      const event = await api.post('/api/v1/webhooks/events', { type: 'dns.check', data: {} });
      expect(event.status).toBe(202);
      const attempt = await eventually(async () => (await api.get(`/api/v1/webhooks/events/${event.body.id}`)).body.deliveries[0]?.attempts[0]);
      expect(attempt).toMatchObject({ attempt: 1, status_code: null, error: `DNS lookup of goes-quiet.test timed out after ${DNS_TIMEOUT_MS / 1000} s.` });
      expect((await api.delete(`/api/v1/webhooks/endpoints/${endpoint.body.id}`)).status).toBe(204);
    });
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { PRODUCTS, Product } from '../../src/domain/keys/products';
import type { Platform } from '../../src/main/platform';
import { fakeClock } from '../support/fake-clock';
import { apiClient, createAccountWithKey, invalidationsReadFrom, startTestPlatform } from '../support/platform';

/** platform-api.md "Authentication" and CONTRACT §2, against the real API and store. */
describe('authentication of key-scoped calls', () => {
  let platform: Platform;
  const LIST = '/api/v1/webhooks/endpoints';
  const OTHER_PRODUCTS = (Object.keys(PRODUCTS) as Product[]).filter((p) => p !== 'weh');

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const raw = (headers: Record<string, string> = {}, path = LIST) => apiClient(platform).get(path, headers);
  const expectUnauthorized = (res: { status: number; body: any; headers: Headers }) => {
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: expect.any(String), code: expect.stringMatching(/^[a-z_]+$/) });
    expect(res.body.error.length).toBeGreaterThan(0);
    // Not a call made with an active key: nothing is counted, no limit headers.
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expect(res.headers.get('x-quota-used')).toBeNull();
  };

  it('200 with a valid weh key on GET /api/v1/webhooks/endpoints', async () => {
    const { key } = await createAccountWithKey(platform);
    const res = await apiClient(platform, key).get(LIST);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], next_cursor: null });
  });

  it('401 when the Authorization header is missing', async () => {
    expectUnauthorized(await raw());
  });

  it('401 for another scheme (Basic) carrying a valid key', async () => {
    const { key } = await createAccountWithKey(platform);
    expectUnauthorized(await raw({ Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` }));
    expectUnauthorized(await raw({ Authorization: `Basic ${key}` }));
    expectUnauthorized(await raw({ Authorization: key }));
  });

  it.each([
    ['an empty bearer', 'Bearer '],
    ['a short hex part', `Bearer svc_live_weh_${'a'.repeat(31)}`],
    ['a long hex part', `Bearer svc_live_weh_${'a'.repeat(33)}`],
    ['upper-case hex', `Bearer svc_live_weh_${'A'.repeat(32)}`],
    ['an unknown product prefix', `Bearer svc_live_xyz_${'a'.repeat(32)}`],
    ['a test-mode prefix', `Bearer svc_test_weh_${'a'.repeat(32)}`],
    ['two tokens', `Bearer svc_live_weh_${'a'.repeat(32)} extra`],
  ])('401 for a malformed key: %s', async (_, header) => {
    expectUnauthorized(await raw({ Authorization: header }));
  });

  it('401 for a well-formed key that does not exist', async () => {
    expectUnauthorized(await raw({ Authorization: `Bearer svc_live_weh_${randomBytes(16).toString('hex')}` }));
  });

  it('401 for a revoked key', async () => {
    const { key, keyId } = await createAccountWithKey(platform);
    await platform.services.accounts.revokeKey(keyId);
    const res = await apiClient(platform, key).get(LIST);
    expectUnauthorized(res);
    expect(res.body.error).toMatch(/revoked/i);
  });

  it.each(['bearer', 'BEARER', 'BeArEr'])('the scheme word is case-insensitive: "%s"', async (scheme) => {
    const { key } = await createAccountWithKey(platform);
    const res = await raw({ Authorization: `${scheme} ${key}` });
    expect(res.status).toBe(200);
  });

  it.each(OTHER_PRODUCTS)('403 for a valid %s key on the webhook product, naming Webhook Reliability', async (product) => {
    const { key } = await createAccountWithKey(platform, { product });
    const res = await apiClient(platform, key).get(LIST);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'API key is not authorized for Webhook Reliability.', code: expect.any(String) });
  });

  it.each(OTHER_PRODUCTS)('403 for a weh key on the %s product, naming that product', async (product) => {
    const { key } = await createAccountWithKey(platform);
    const res = await apiClient(platform, key).get(`/api/v1/${PRODUCTS[product].pathSegment}/anything`);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(`API key is not authorized for ${PRODUCTS[product].name}.`);
  });

  it('the product check cannot be bypassed by the spelling of the path', async () => {
    const { key } = await createAccountWithKey(platform, { product: 'sec' });
    for (const path of ['/api/v1/WEBHOOKS/endpoints', '/API/V1/webhooks/endpoints', '/Api/v1/Webhooks/endpoints']) {
      // Any spelling of /api/v1/ is key-scoped: authenticated, then checked against the product it names.
      const res = await apiClient(platform, key).get(path);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('API key is not authorized for Webhook Reliability.');
      expectUnauthorized(await raw({}, path));
    }
  });

  it('403s are counted: they carry the limit headers and X-Quota-Used increases', async () => {
    const { key } = await createAccountWithKey(platform, { tier: 'free', product: 'sec' });
    const first = await apiClient(platform, key).get(LIST);
    const second = await apiClient(platform, key).get(LIST);
    expect([first.status, second.status]).toEqual([403, 403]);
    expect(first.headers.get('x-quota-used')).toBe('1');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('9');
    expect(second.headers.get('x-quota-used')).toBe('2');
    expect(second.headers.get('x-ratelimit-remaining')).toBe('8');
    expect(second.headers.get('x-ratelimit-limit')).toBe('10');
    expect(second.headers.get('x-quota-limit')).toBe('500');
  });

  it('revocation takes effect at once in the process that revoked', async () => {
    const { key, keyId } = await createAccountWithKey(platform);
    const api = apiClient(platform, key);
    expect((await api.get(LIST)).status).toBe(200); // the key is now in this process's cache
    await platform.services.accounts.revokeKey(keyId);
    expect((await api.get(LIST)).status).toBe(401);
  });

  it('revocation takes effect in a second API process sharing the database once it has read the cache-invalidations log', async () => {
    // The second process's cache ages on a clock the test holds: only the log can drop the key there.
    const clock = fakeClock(Date.now());
    const second = await startTestPlatform({ sameAs: platform, roles: { api: true, worker: false }, clock: clock.now });
    try {
      const { key, keyId } = await createAccountWithKey(platform);
      const there = apiClient(second, key);
      expect((await there.get(LIST)).status).toBe(200); // cached in the second process
      await platform.services.accounts.revokeKey(keyId);
      await invalidationsReadFrom(second, clock.advance(1));
      expect((await there.get(LIST)).status).toBe(401);
      // And it stays revoked.
      expect((await there.get(LIST)).status).toBe(401);
    } finally {
      await second.stop();
    }
  });

  it('zero-downtime rotation: new key, both work, old revoked → 401, new still 200', async () => {
    const { accountId, key: oldKey, keyId: oldKeyId } = await createAccountWithKey(platform);
    const created = await platform.services.accounts.createKey(accountId, 'weh', 'rotated key');
    const oldApi = apiClient(platform, oldKey);
    const newApi = apiClient(platform, created.key);
    expect((await oldApi.get(LIST)).status).toBe(200);
    expect((await newApi.get(LIST)).status).toBe(200);
    // Both keys act for the same account: what one creates, the other sees.
    const endpoint = await newApi.post(LIST, { url: 'https://example.com/hook' });
    expect(endpoint.status).toBe(201);
    expect((await oldApi.get(LIST)).body.data.map((e: { id: string }) => e.id)).toEqual([endpoint.body.id]);
    await platform.services.accounts.revokeKey(oldKeyId);
    expect((await oldApi.get(LIST)).status).toBe(401);
    expect((await newApi.get(LIST)).status).toBe(200);
  });

  it('keys are stored only as SHA-256 hashes: no stored field contains the key or its secret part', async () => {
    const { key, keyId } = await createAccountWithKey(platform);
    const doc = await platform.db.collection('api_keys').findOne({ _id: keyId as never });
    expect(doc).not.toBeNull();
    expect(doc!.hash).toBe(createHash('sha256').update(key).digest('hex'));
    const secretPart = key.slice('svc_live_weh_'.length);
    const everything = JSON.stringify(await platform.db.collection('api_keys').find({}).toArray());
    expect(everything).not.toContain(key);
    expect(everything).not.toContain(secretPart);
    expect(everything).not.toContain(secretPart.slice(0, 28)); // nothing beyond the last four
    expect(doc!.last_four).toBe(key.slice(-4));
  });

  it('a key list never shows the full key, only its prefix and last four characters', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const listed = await platform.services.accounts.listKeys(accountId);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(JSON.stringify(listed)).not.toContain(key.slice('svc_live_weh_'.length));
    expect(listed[0]).toMatchObject({ prefix: 'svc_live_weh_', last_four: key.slice(-4), product: 'weh' });
    expect(listed[0]).not.toHaveProperty('key');
  });
});

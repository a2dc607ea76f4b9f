import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, startTestPlatform } from '../support/platform';

/** CONTRACT §3: registering, listing, changing and removing destinations. */
describe('webhook endpoints API', () => {
  let platform: Platform;
  let strict: Platform;
  let api: ReturnType<typeof apiClient>;
  let other: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false } });
    // A second API process on the same data, with private destinations refused (the production default).
    strict = await startTestPlatform({ roles: { api: true, worker: false }, sameAs: platform, env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'false' } });
    api = apiClient(platform, (await createAccountWithKey(platform)).key);
    other = apiClient(platform, (await createAccountWithKey(platform)).key);
  });
  afterAll(async () => {
    await strict?.stop();
    await platform?.stop();
  });

  const create = (body: unknown, client = api) => client.post('/api/v1/webhooks/endpoints', body);

  it('registers an endpoint with 201, an ep_ id, a whsec_ secret and the defaults', async () => {
    const res = await create({ url: 'https://receiver.example.com/hooks' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ url: 'https://receiver.example.com/hooks', events: ['*'], description: '', disabled: false });
    expect(res.body.id).toMatch(/^ep_[A-Za-z0-9]{24}$/);
    // Standard base64 of 32 random bytes, as Standard Webhooks libraries decode it.
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(res.body.updated_at).toBe(res.body.created_at);
  });

  it('keeps the given events patterns and description', async () => {
    const res = await create({ url: 'https://a.example.com/', events: ['order.*', 'user.created'], description: 'orders' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ events: ['order.*', 'user.created'], description: 'orders' });
  });

  it.each([
    ['a url that is not a string', { url: 42 }],
    ['a relative url', { url: '/hooks' }],
    ['a url longer than 2,048 characters', { url: `https://example.com/${'a'.repeat(2050)}` }],
    ['no url', {}],
  ])('answers 400 for %s', async (_name, body) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
    expect(res.body.code).toEqual(expect.any(String));
  });

  it.each([
    ['an http url', 'http://example.com/hooks'],
    ['a url with credentials', 'https://user:pass@example.com/hooks'],
    ['an ftp url', 'ftp://example.com/hooks'],
  ])('answers 422 for %s', async (_name, url) => {
    const res = await create({ url });
    expect(res.status).toBe(422);
  });

  it.each([
    ['loopback', 'https://127.0.0.1/hooks'],
    ['a name resolving to loopback', 'https://localhost/hooks'],
    ['a private network', 'https://10.1.2.3/hooks'],
    ['the metadata address', 'https://169.254.169.254/latest'],
    ['an IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/hooks'],
  ])('refuses %s with 422 when private destinations are not allowed', async (_name, url) => {
    const strictApi = apiClient(strict, (await createAccountWithKey(strict)).key);
    const res = await strictApi.post('/api/v1/webhooks/endpoints', { url });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('destination_not_allowed');
  });

  it('refuses a name resolving to a private address without saying which address', async () => {
    const strictApi = apiClient(strict, (await createAccountWithKey(strict)).key);
    const res = await strictApi.post('/api/v1/webhooks/endpoints', { url: 'https://localhost/hooks' });
    expect([res.status, res.body.code]).toEqual([422, 'destination_not_allowed']);
    expect(res.body.error).toMatch(/localhost resolves to a private or reserved address/);
    expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|::1/);
  });

  it.each([
    ['an empty events array', { events: [] }],
    ['more than 100 patterns', { events: Array.from({ length: 101 }, (_, i) => `t${i}`) }],
    ['an invalid pattern', { events: ['user*'] }],
    ['a description over 1,024 characters', { description: 'x'.repeat(1025) }],
  ])('answers 400 for %s', async (_name, extra) => {
    const res = await create({ url: 'https://example.com/', ...extra });
    expect(res.status).toBe(400);
    expect(res.body.details.length).toBeGreaterThan(0);
  });

  it('lists newest first without secrets, with cursor pagination', async () => {
    const client = apiClient(platform, (await createAccountWithKey(platform)).key);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create({ url: `https://e${i}.example.com/` }, client)).body.id);
    const first = await client.get('/api/v1/webhooks/endpoints?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((e: { id: string }) => e.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.data.every((e: object) => !('secret' in e))).toBe(true);
    const second = await client.get(`/api/v1/webhooks/endpoints?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    const third = await client.get(`/api/v1/webhooks/endpoints?limit=2&cursor=${second.body.next_cursor}`);
    expect(third.body.data.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
    expect(third.body.next_cursor).toBeNull();
  });

  it.each(['0', '101', 'x'])('answers 400 for limit=%s', async (limit) => {
    expect((await api.get(`/api/v1/webhooks/endpoints?limit=${limit}`)).status).toBe(400);
  });

  it('answers 400 for a cursor it did not issue', async () => {
    expect((await api.get('/api/v1/webhooks/endpoints?cursor=garbage')).status).toBe(400);
  });

  it('gets one endpoint without its secret', async () => {
    const created = (await create({ url: 'https://get.example.com/' })).body;
    const res = await api.get(`/api/v1/webhooks/endpoints/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, secret: undefined, updated_at: created.updated_at });
    expect(res.body).not.toHaveProperty('secret');
  });

  it("answers 404 for another account's endpoint on every operation", async () => {
    const id = (await create({ url: 'https://mine.example.com/' })).body.id;
    expect((await other.get(`/api/v1/webhooks/endpoints/${id}`)).status).toBe(404);
    expect((await other.patch(`/api/v1/webhooks/endpoints/${id}`, { description: 'x' })).status).toBe(404);
    expect((await other.get(`/api/v1/webhooks/endpoints/${id}/secret`)).status).toBe(404);
    expect((await other.post(`/api/v1/webhooks/endpoints/${id}/secret/rotate`)).status).toBe(404);
    expect((await other.delete(`/api/v1/webhooks/endpoints/${id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/webhooks/endpoints/${id}`)).status).toBe(200);
  });

  it('changes url, events, description and disabled with PATCH', async () => {
    const id = (await create({ url: 'https://old.example.com/' })).body.id;
    const res = await api.patch(`/api/v1/webhooks/endpoints/${id}`, {
      url: 'https://new.example.com/',
      events: ['invoice.*'],
      description: 'new',
      disabled: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url: 'https://new.example.com/', events: ['invoice.*'], description: 'new', disabled: true });
    expect(res.body.updated_at >= res.body.created_at).toBe(true);
  });

  it('validates PATCH like creation (422 for http, 400 for a bad pattern)', async () => {
    const id = (await create({ url: 'https://patch.example.com/' })).body.id;
    expect((await api.patch(`/api/v1/webhooks/endpoints/${id}`, { url: 'http://x.example.com/' })).status).toBe(422);
    expect((await api.patch(`/api/v1/webhooks/endpoints/${id}`, { events: ['*.created'] })).status).toBe(400);
    expect((await api.get(`/api/v1/webhooks/endpoints/${id}`)).body.url).toBe('https://patch.example.com/');
  });

  it('deletes with 204, after which the endpoint is 404', async () => {
    const id = (await create({ url: 'https://gone.example.com/' })).body.id;
    const res = await api.delete(`/api/v1/webhooks/endpoints/${id}`);
    expect(res.status).toBe(204);
    expect((await api.get(`/api/v1/webhooks/endpoints/${id}`)).status).toBe(404);
  });

  it('returns the secret, and a rotation replaces it', async () => {
    const created = (await create({ url: 'https://secret.example.com/' })).body;
    expect((await api.get(`/api/v1/webhooks/endpoints/${created.id}/secret`)).body).toEqual({ secret: created.secret });
    const rotated = await api.post(`/api/v1/webhooks/endpoints/${created.id}/secret/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect((await api.get(`/api/v1/webhooks/endpoints/${created.id}/secret`)).body).toEqual({ secret: rotated.body.secret });
  });

  it('stores signing secrets encrypted, never in clear', async () => {
    const created = (await create({ url: 'https://sealed.example.com/' })).body;
    const doc = await platform.db.collection('endpoints').findOne({ _id: created.id } as never);
    expect(JSON.stringify(doc)).not.toContain(created.secret);
    expect(JSON.stringify(doc)).not.toContain(created.secret.slice('whsec_'.length));
  });
});

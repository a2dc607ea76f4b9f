import { createHash, randomBytes } from 'node:crypto';
import type { Platform } from '../../src/main/platform';
import type { EndpointChanges } from '../../src/persistence/endpoints';
import { holdMethod, type Gate } from '../support/gate';
import { apiClient, createAccountWithKey, startTestPlatform } from '../support/platform';

/**
 * Portal sessions (docs/tenants-and-portal.md): a token for one tenant's people, made with the account's key. On the public
 * endpoint and event paths it sees and changes only its tenant's records; read-only tokens change nothing; expired, forged
 * and revoked tokens are 401; its calls count against the account's limits.
 */
describe('portal sessions', () => {
  let platform: Platform;
  let offsetMs = 0;
  type Api = ReturnType<typeof apiClient>;

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false }, clock: () => new Date(Date.now() + offsetMs) });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const url = (name: string) => `https://127.0.0.1:9/${name}`;
  async function session(api: Api, body: Record<string, unknown>) {
    const res = await api.post('/api/v1/webhooks/portal-sessions', body);
    expect(res.status).toBe(201);
    return { ...res.body, api: apiClient(platform, res.body.token) } as { token: string; url: string; expires_at: string; api: Api };
  }
  const created = async (api: Api, path: string, body: unknown) => {
    const res = await api.post(path, body);
    expect(res.status).toBeLessThan(300);
    return res.body;
  };

  it('is made with the key: 201 with a whpt_ token (stored only as its hash), its portal url and expiry', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const before = Date.now();
    const made = await session(apiClient(platform, key), { tenant_id: 'cus_A' });
    expect(made).toMatchObject({ tenant_id: 'cus_A', read_only: false });
    expect(made.token).toMatch(/^whpt_[A-Za-z0-9_-]{43}$/);
    expect(made.url).toBe(`${platform.apiUrl}/portal/${accountId}#token=${made.token}`);
    const expiresIn = Date.parse(made.expires_at) - before;
    expect(expiresIn).toBeGreaterThan(3_590_000);
    expect(expiresIn).toBeLessThanOrEqual(3_601_000);
    const stored = await platform.db.collection('portal_sessions').find({}).toArray();
    expect(JSON.stringify(stored)).not.toContain(made.token);
    expect(stored.map((d) => d._id)).toContain(createHash('sha256').update(made.token).digest('hex'));
  });

  it("sees and changes only its tenant's records: another tenant's and the account's own are 404, naming another tenant is 403", async () => {
    const { key } = await createAccountWithKey(platform);
    const api = apiClient(platform, key);
    const a1 = await created(api, '/api/v1/webhooks/endpoints', { url: url('a1'), tenant_id: 'cus_A' });
    const b1 = await created(api, '/api/v1/webhooks/endpoints', { url: url('b1'), tenant_id: 'cus_B' });
    const own = await created(api, '/api/v1/webhooks/endpoints', { url: url('own') });
    const eA = await created(api, '/api/v1/webhooks/events', { type: 'a.b', data: {}, tenant_id: 'cus_A' });
    const eB = await created(api, '/api/v1/webhooks/events', { type: 'a.b', data: {}, tenant_id: 'cus_B' });
    const eOwn = await created(api, '/api/v1/webhooks/events', { type: 'a.b', data: {} });
    const portal = (await session(api, { tenant_id: 'cus_A' })).api;

    const listed = await portal.get('/api/v1/webhooks/endpoints');
    expect([listed.status, listed.body.data.map((e: { id: string }) => e.id)]).toEqual([200, [a1.id]]);
    expect(listed.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect((await portal.get('/api/v1/webhooks/events')).body.data.map((e: { id: number }) => e.id)).toEqual([eA.id]);
    expect((await portal.get(`/api/v1/webhooks/events/${eA.id}`)).status).toBe(200);
    expect((await portal.get(`/api/v1/webhooks/endpoints/${a1.id}/secret`)).status).toBe(200);

    for (const other of [b1, own]) {
      const calls = [
        portal.get(`/api/v1/webhooks/endpoints/${other.id}`),
        portal.patch(`/api/v1/webhooks/endpoints/${other.id}`, { description: 'mine now' }),
        portal.delete(`/api/v1/webhooks/endpoints/${other.id}`),
        portal.get(`/api/v1/webhooks/endpoints/${other.id}/secret`),
        portal.post(`/api/v1/webhooks/endpoints/${other.id}/secret/rotate`),
        portal.post(`/api/v1/webhooks/endpoints/${other.id}/pause`),
        portal.post(`/api/v1/webhooks/endpoints/${other.id}/resume`),
        portal.post(`/api/v1/webhooks/endpoints/${other.id}/retry-now`),
        portal.post(`/api/v1/webhooks/endpoints/${other.id}/recover`, { since: new Date(Date.now() - 60_000).toISOString() }),
      ];
      for (const res of await Promise.all(calls)) expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    }
    for (const other of [eB, eOwn]) {
      const endpointId = other === eB ? b1.id : own.id;
      const calls = [
        portal.get(`/api/v1/webhooks/events/${other.id}`),
        portal.post(`/api/v1/webhooks/events/${other.id}/deliveries/${endpointId}/retry`),
        portal.post(`/api/v1/webhooks/events/${other.id}/deliveries/${endpointId}/retry-now`),
        portal.post(`/api/v1/webhooks/events/${other.id}/deliveries/${endpointId}/cancel`),
      ];
      for (const res of await Promise.all(calls)) expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    }
    // Nothing of theirs changed.
    expect((await api.get(`/api/v1/webhooks/endpoints/${b1.id}`)).body).toMatchObject({ description: '', paused: false });
    expect((await api.get(`/api/v1/webhooks/endpoints/${own.id}/secret`)).body.secret).toBe(own.secret);

    // What it makes is its tenant's; naming another tenant is refused.
    const mine = await portal.post('/api/v1/webhooks/endpoints', { url: url('a2') });
    expect([mine.status, mine.body.tenant_id]).toEqual([201, 'cus_A']);
    const sent = await portal.post('/api/v1/webhooks/events', { type: 'test.sent', data: {} });
    expect([sent.status, sent.body.tenant_id, sent.body.destinations]).toEqual([202, 'cus_A', 2]);
    const refused = [
      await portal.post('/api/v1/webhooks/endpoints', { url: url('b2'), tenant_id: 'cus_B' }),
      await portal.patch(`/api/v1/webhooks/endpoints/${a1.id}`, { tenant_id: 'cus_B' }),
      await portal.patch(`/api/v1/webhooks/endpoints/${a1.id}`, { tenant_id: null }),
      await portal.post('/api/v1/webhooks/events', { type: 'a.b', data: {}, tenant_id: 'cus_B' }),
      await portal.get('/api/v1/webhooks/endpoints?tenant_id=cus_B'),
      await portal.get('/api/v1/webhooks/events?tenant_id=cus_B'),
      // Paths that are the account's, not the tenant's.
      await portal.get('/api/v1/webhooks/tenants'),
      await portal.post('/api/v1/webhooks/portal-sessions', { tenant_id: 'cus_A' }),
      await portal.delete('/api/v1/webhooks/portal-sessions'),
    ];
    for (const res of refused) expect([res.status, res.body.code]).toEqual([403, 'portal_not_allowed']);
    // null is no tenant id where a create takes one: the body's 400, as with a key (docs/tenants-and-portal.md).
    const nulls = [
      await portal.post('/api/v1/webhooks/endpoints', { url: url('a3'), tenant_id: null }),
      await portal.post('/api/v1/webhooks/events', { type: 'a.b', data: {}, tenant_id: null }),
    ];
    for (const res of nulls) expect([res.status, res.body.code, res.body.details?.[0]?.path]).toEqual([400, 'invalid_request', 'tenant_id']);
    expect((await api.get('/api/v1/webhooks/endpoints?tenant_id=cus_B')).body.data.map((e: { id: string }) => e.id)).toEqual([b1.id]);
    expect((await api.get(`/api/v1/webhooks/endpoints/${a1.id}`)).body.tenant_id).toBe('cus_A');
    expect((await api.get('/api/v1/webhooks/events?tenant_id=cus_B')).body.data).toHaveLength(1);
    // Its own endpoint it may change.
    expect((await portal.patch(`/api/v1/webhooks/endpoints/${a1.id}`, { description: 'by the tenant' })).body.description).toBe('by the tenant');
    expect((await portal.post(`/api/v1/webhooks/endpoints/${a1.id}/pause`)).body.paused).toBe(true);
  });

  // Each change held after its read of the endpoint (a delete: before its one write), while the key moves the endpoint to
  // another tenant: the write carries the session's tenant in its filter, so it finds nothing (404) and the other tenant's
  // endpoint is untouched.
  const held = (id: string, isIt: (changes: EndpointChanges) => boolean) => () =>
    holdMethod(platform.repositories.endpoints, 'update', { when: (current, changes) => current._id === id && isIt(changes) });
  const heldChanges: Array<[string, (api: Api, id: string) => Promise<{ status: number }>, (id: string) => () => Gate & { restore(): void }]> = [
    ['PATCH', (api, id) => api.patch(`/api/v1/webhooks/endpoints/${id}`, { description: 'by A' }), (id) => held(id, (changes) => changes.description === 'by A')],
    ['pause', (api, id) => api.post(`/api/v1/webhooks/endpoints/${id}/pause`, {}), (id) => held(id, (changes) => changes.paused === true)],
    ['secret rotation', (api, id) => api.post(`/api/v1/webhooks/endpoints/${id}/secret/rotate`, {}), (id) => held(id, (changes) => changes.secret_sealed !== undefined)],
    ['delete', (api, id) => api.delete(`/api/v1/webhooks/endpoints/${id}`), (id) => () => holdMethod(platform.repositories.endpoints, 'delete', { when: (_owner, endpointId) => endpointId === id })],
  ];
  for (const [change, call, holdFor] of heldChanges) {
    it(`a ${change} of its endpoint moved to another tenant before the write is a 404 and changes nothing`, async () => {
      const { key } = await createAccountWithKey(platform);
      const api = apiClient(platform, key);
      const endpoint = await created(api, '/api/v1/webhooks/endpoints', { url: url(`moved-${change.replace(/\W/g, '-')}`), tenant_id: 'cus_A' });
      const portal = (await session(api, { tenant_id: 'cus_A' })).api;
      const gate = holdFor(endpoint.id)();
      try {
        const changing = call(portal, endpoint.id);
        await gate.reached;
        expect((await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { tenant_id: 'cus_B' })).status).toBe(200);
        gate.open();
        expect((await changing).status).toBe(404);
      } finally {
        gate.restore();
      }
      expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body).toMatchObject({ tenant_id: 'cus_B', description: '', paused: false });
      expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}/secret`)).body.secret).toBe(endpoint.secret);
    });
  }

  it("has its tenant's own idempotency keys: another tenant's or the account's key neither answers with their event nor is taken from them", async () => {
    const { key } = await createAccountWithKey(platform);
    const api = apiClient(platform, key);
    await created(api, '/api/v1/webhooks/endpoints', { url: url('y'), tenant_id: 'cus_Y' });
    const portalX = (await session(api, { tenant_id: 'cus_X' })).api;

    const forY = await api.post('/api/v1/webhooks/events', { type: 'invoice.paid', data: {}, tenant_id: 'cus_Y', idempotency_key: 'inv_1' });
    const own = await api.post('/api/v1/webhooks/events', { type: 'invoice.paid', data: {}, idempotency_key: 'inv_2' });
    for (const taken of ['inv_1', 'inv_2']) {
      const res = await portalX.post('/api/v1/webhooks/events', { type: 'test.sent', data: {}, idempotency_key: taken });
      expect([res.status, res.body.type, res.body.tenant_id]).toEqual([202, 'test.sent', 'cus_X']);
    }
    expect([forY.status, own.status]).toEqual([202, 202]);

    // A key the tenant's session took first is still the sender's to use for another tenant: stored and delivered.
    expect((await portalX.post('/api/v1/webhooks/events', { type: 'order.paid', data: { evil: 1 }, idempotency_key: 'ord_1' })).status).toBe(202);
    const sender = await api.post('/api/v1/webhooks/events', { type: 'order.paid', data: { amount: 100 }, tenant_id: 'cus_Y', idempotency_key: 'ord_1' });
    expect([sender.status, sender.body.tenant_id, sender.body.destinations]).toEqual([202, 'cus_Y', 1]);
    const repeat = await api.post('/api/v1/webhooks/events', { type: 'order.paid', data: { amount: 100 }, tenant_id: 'cus_Y', idempotency_key: 'ord_1' });
    expect([repeat.status, repeat.body.id]).toEqual([200, sender.body.id]);
  });

  it("the services, called directly for a tenant, find no other tenant's endpoint or event", async () => {
    const { key, accountId } = await createAccountWithKey(platform);
    const api = apiClient(platform, key);
    const b = await created(api, '/api/v1/webhooks/endpoints', { url: url('direct-b'), tenant_id: 'cus_B' });
    const eB = await created(api, '/api/v1/webhooks/events', { type: 'a.b', data: {}, tenant_id: 'cus_B' });
    const asA = { accountId, tenantId: 'cus_A' };
    const { endpoints, events } = platform.services;
    for (const attempt of [
      () => endpoints.update(asA, b.id, { description: 'by A' }),
      () => endpoints.pause(asA, b.id),
      () => endpoints.rotateSecret(asA, b.id),
      () => endpoints.delete(asA, b.id),
      () => events.get(asA, eB.id),
      () => events.retry(asA, eB.id, b.id),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ code: 'not_found' });
    }
    expect((await api.get(`/api/v1/webhooks/endpoints/${b.id}`)).body).toMatchObject({ description: '', paused: false });
    // An endpoint's deliveries as a set are held to the tenant through their events, read with the same filter.
    const eA = await created(api, '/api/v1/webhooks/events', { type: 'a.b', data: {}, tenant_id: 'cus_A' });
    const eOwn = await created(api, '/api/v1/webhooks/events', { type: 'a.b', data: {} });
    expect(await platform.repositories.events.ownedAmong(asA, [eA.id, eB.id, eOwn.id])).toEqual(new Set([eA.id]));
    expect(await platform.repositories.events.ownedAmong(accountId, [eA.id, eB.id, eOwn.id])).toEqual(new Set([eA.id, eB.id, eOwn.id]));
  });

  it('a call reads its session only (its account is cached), and a revocation still applies to the next call', async () => {
    const { key } = await createAccountWithKey(platform);
    const api = apiClient(platform, key);
    const portal = (await session(api, { tenant_id: 'cus_A' })).api;
    const sessionReads = jest.spyOn(platform.repositories.portalSessions, 'findValid');
    const accountReads = jest.spyOn(platform.repositories.accounts, 'findById');
    try {
      for (let i = 0; i < 5; i++) expect((await portal.get('/api/v1/webhooks/endpoints')).status).toBe(200);
      expect(sessionReads).toHaveBeenCalledTimes(5);
      // Not one read of the account per call (the cache's lifetimes: test/unit/webhooks/account-cache.test.ts).
      expect(accountReads.mock.calls.length).toBeLessThan(5);
      expect((await api.delete('/api/v1/webhooks/portal-sessions')).status).toBe(200);
      expect((await portal.get('/api/v1/webhooks/endpoints')).body.code).toBe('invalid_portal_token');
    } finally {
      sessionReads.mockRestore();
      accountReads.mockRestore();
    }
  });

  it('read-only: reads work, every change is 403 portal_read_only and changes nothing', async () => {
    const { key, accountId } = await createAccountWithKey(platform);
    const api = apiClient(platform, key);
    const a1 = await created(api, '/api/v1/webhooks/endpoints', { url: url('ro'), tenant_id: 'cus_A' });
    const portal = (await session(api, { tenant_id: 'cus_A', read_only: true })).api;
    expect((await portal.get('/api/v1/webhooks/endpoints')).body.data).toHaveLength(1);
    expect((await portal.get(`/api/v1/webhooks/endpoints/${a1.id}/secret`)).status).toBe(200);
    const changes = [
      await portal.post('/api/v1/webhooks/endpoints', { url: url('ro2') }),
      await portal.patch(`/api/v1/webhooks/endpoints/${a1.id}`, { description: 'x' }),
      await portal.delete(`/api/v1/webhooks/endpoints/${a1.id}`),
      await portal.post(`/api/v1/webhooks/endpoints/${a1.id}/secret/rotate`),
      await portal.post(`/api/v1/webhooks/endpoints/${a1.id}/pause`),
      await portal.post('/api/v1/webhooks/events', { type: 'a.b', data: {} }),
    ];
    for (const res of changes) expect([res.status, res.body.code]).toEqual([403, 'portal_read_only']);
    expect(await platform.db.collection('endpoints').countDocuments({ account_id: accountId })).toBe(1);
    expect(await platform.db.collection('events').countDocuments({ account_id: accountId })).toBe(0);
    expect((await api.get(`/api/v1/webhooks/endpoints/${a1.id}`)).body).toMatchObject({ description: '', paused: false });
    expect((await api.get(`/api/v1/webhooks/endpoints/${a1.id}/secret`)).body.secret).toBe(a1.secret);
  });

  it('expired, forged, malformed and revoked tokens are 401 invalid_portal_token; the key keeps working', async () => {
    const { key } = await createAccountWithKey(platform);
    const api = apiClient(platform, key);
    const short = await session(api, { tenant_id: 'cus_A', expires_in_seconds: 60 });
    const long = await session(api, { tenant_id: 'cus_A' });
    expect((await short.api.get('/api/v1/webhooks/endpoints')).status).toBe(200);
    const forged = apiClient(platform, `whpt_${randomBytes(32).toString('base64url')}`);
    const malformed = apiClient(platform, 'whpt_short');
    for (const client of [forged, malformed]) {
      const res = await client.get('/api/v1/webhooks/endpoints');
      expect([res.status, res.body.code]).toEqual([401, 'invalid_portal_token']);
    }
    offsetMs += 61_000;
    const expired = await short.api.get('/api/v1/webhooks/endpoints');
    expect([expired.status, expired.body.code]).toEqual([401, 'invalid_portal_token']);
    expect((await long.api.get('/api/v1/webhooks/endpoints')).status).toBe(200);

    const revoked = await api.delete('/api/v1/webhooks/portal-sessions');
    expect([revoked.status, revoked.body.revoked]).toEqual([200, 2]);
    expect((await long.api.get('/api/v1/webhooks/endpoints')).status).toBe(401);
    expect((await api.get('/api/v1/webhooks/endpoints')).status).toBe(200);
  });

  it("counts its calls against the account's limits, with the same headers", async () => {
    const { key } = await createAccountWithKey(platform, { tier: 'free' });
    const api = apiClient(platform, key);
    const portal = (await session(api, { tenant_id: 'cus_A' })).api; // call 1 of the free tier's 10 a minute
    const calls = [];
    for (let i = 0; i < 9; i++) calls.push(await portal.get('/api/v1/webhooks/endpoints'));
    expect(calls.map((r) => r.status)).toEqual(Array(9).fill(200));
    expect(calls.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['8', '7', '6', '5', '4', '3', '2', '1', '0']);
    const over = await api.get('/api/v1/webhooks/endpoints');
    expect([over.status, over.body.code]).toEqual([429, 'rate_limit_exceeded']);
  });

  it.each([
    ['no tenant_id', {}],
    ['a bad tenant_id', { tenant_id: 'cus 1' }],
    ['expires_in_seconds over 24 h', { tenant_id: 'cus_A', expires_in_seconds: 86_401 }],
    ['expires_in_seconds under a minute', { tenant_id: 'cus_A', expires_in_seconds: 59 }],
    ['an unknown field', { tenant_id: 'cus_A', scope: 'all' }],
  ])('refuses a session with %s (400) and stores none', async (_name, body) => {
    const { key, accountId } = await createAccountWithKey(platform);
    const res = await apiClient(platform, key).post('/api/v1/webhooks/portal-sessions', body);
    expect([res.status, res.body.code]).toEqual([400, 'invalid_request']);
    expect(await platform.db.collection('portal_sessions').countDocuments({ account_id: accountId })).toBe(0);
  });
});

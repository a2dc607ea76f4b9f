import { deliveryClosed } from '../support/delivery-workflows';
import { apiClient, createAccountWithKey, eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';

const ENDPOINTS_PER_TENANT = 3;
const TENANTS_PER_ACCOUNT = 3;

/**
 * Tenants (docs/tenants-and-portal.md), through real Temporal workflows to real HTTPS receivers: an event reaches only the
 * endpoints of its own tenant (or, without one, only the account's own), lists filter by tenant, a tenant's delete cancels
 * its waiting deliveries, and both caps hold under concurrent creates.
 */
describe('tenants', () => {
  const fixture = receivingPlatform({ MAX_ENDPOINTS_PER_TENANT: String(ENDPOINTS_PER_TENANT), MAX_TENANTS_PER_ACCOUNT: String(TENANTS_PER_ACCOUNT) });
  type Api = ReturnType<typeof apiClient>;

  async function newAccount() {
    const { key, accountId } = await createAccountWithKey(fixture.platform);
    return { api: apiClient(fixture.platform, key), accountId };
  }

  /** An endpoint of `tenant` (undefined: the account's own) to a new receiver answering `status`. */
  async function endpointTo(api: Api, tenant: string | undefined, options: { events?: string[]; status?: number } = {}) {
    const receiver = await fixture.receiver(() => ({ status: options.status ?? 200 }));
    const res = await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/hook`, ...(tenant && { tenant_id: tenant }), ...(options.events && { events: options.events }) });
    expect(res.status).toBe(201);
    return { receiver, endpoint: res.body };
  }

  const send = async (api: Api, type: string, tenant?: string) => {
    const res = await api.post('/api/v1/webhooks/events', { type, data: { n: 1 }, ...(tenant && { tenant_id: tenant }) });
    expect(res.status).toBe(202);
    return res.body;
  };
  const deliveryOf = async (api: Api, eventId: number) => (await api.get(`/api/v1/webhooks/events/${eventId}`)).body.deliveries[0];
  const countIn = (collection: string, filter: object) => fixture.platform.db.collection(collection).countDocuments(filter);

  it("delivers a tenant's event to that tenant's matching endpoints only, and an event without a tenant to the account's own only", async () => {
    const { api } = await newAccount();
    const a1 = await endpointTo(api, 'cus_A');
    const a2 = await endpointTo(api, 'cus_A', { events: ['order.*'] });
    const b1 = await endpointTo(api, 'cus_B');
    const own = await endpointTo(api, undefined);
    const byEndpoint = new Map([a1, a2, b1, own].map((e) => [e.endpoint.id, e]));

    const forA = await send(api, 'order.created', 'cus_A');
    const forAOther = await send(api, 'user.created', 'cus_A');
    const forB = await send(api, 'order.created', 'cus_B');
    const untenanted = await send(api, 'order.created');
    const forNobody = await send(api, 'order.created', 'cus_without_endpoints');
    expect([forA, forAOther, forB, untenanted, forNobody].map((e) => [e.tenant_id, e.destinations])).toEqual([
      ['cus_A', 2],
      ['cus_A', 1],
      ['cus_B', 1],
      [undefined, 1],
      ['cus_without_endpoints', 0],
    ]);

    const expected: Array<[number, string[]]> = [
      [forA.id, [a1.endpoint.id, a2.endpoint.id]],
      [forAOther.id, [a1.endpoint.id]],
      [forB.id, [b1.endpoint.id]],
      [untenanted.id, [own.endpoint.id]],
      [forNobody.id, []],
    ];
    for (const [eventId, endpointIds] of expected) {
      const event = (await api.get(`/api/v1/webhooks/events/${eventId}`)).body;
      expect(event.deliveries.map((d: { endpoint_id: string }) => d.endpoint_id).sort()).toEqual([...endpointIds].sort());
      // Once every delivery of the event has closed, what each receiver holds of it is final.
      for (const id of endpointIds) expect(await deliveryClosed(fixture.platform.temporal, eventId, id)).toBe('COMPLETED');
    }
    const receivedIds = (id: string) => byEndpoint.get(id)!.receiver.received.map((r) => JSON.parse(r.rawBody).id).sort((x: number, y: number) => x - y);
    expect(receivedIds(a1.endpoint.id)).toEqual([forA.id, forAOther.id]);
    expect(receivedIds(a2.endpoint.id)).toEqual([forA.id]);
    expect(receivedIds(b1.endpoint.id)).toEqual([forB.id]);
    expect(receivedIds(own.endpoint.id)).toEqual([untenanted.id]);
  });

  it('lists endpoints and events by tenant, shows tenant_id on records, and lists tenants with endpoint counts, newest first', async () => {
    const { api } = await newAccount();
    const a1 = await endpointTo(api, 'cus_A');
    const own = await endpointTo(api, undefined);
    const b1 = await endpointTo(api, 'cus_B');
    const a2 = await endpointTo(api, 'cus_A');
    const eA = await send(api, 'x.y', 'cus_A');
    const eOwn = await send(api, 'x.y');
    const eB = await send(api, 'x.y', 'cus_B');

    const ids = (page: { data: Array<{ id: string | number }> }) => page.data.map((d) => d.id);
    expect(ids((await api.get('/api/v1/webhooks/endpoints?tenant_id=cus_A')).body)).toEqual([a2.endpoint.id, a1.endpoint.id]);
    expect(ids((await api.get('/api/v1/webhooks/endpoints?tenant_id=cus_B')).body)).toEqual([b1.endpoint.id]);
    expect(ids((await api.get('/api/v1/webhooks/endpoints?tenant_id=cus_none')).body)).toEqual([]);
    const all = (await api.get('/api/v1/webhooks/endpoints')).body;
    expect(all.data.map((e: { id: string; tenant_id: string | null }) => [e.id, e.tenant_id])).toEqual([
      [a2.endpoint.id, 'cus_A'],
      [b1.endpoint.id, 'cus_B'],
      [own.endpoint.id, null],
      [a1.endpoint.id, 'cus_A'],
    ]);
    const page1 = (await api.get('/api/v1/webhooks/endpoints?tenant_id=cus_A&limit=1')).body;
    expect(ids(page1)).toEqual([a2.endpoint.id]);
    expect(ids((await api.get(`/api/v1/webhooks/endpoints?tenant_id=cus_A&limit=1&cursor=${page1.next_cursor}`)).body)).toEqual([a1.endpoint.id]);

    expect(ids((await api.get('/api/v1/webhooks/events?tenant_id=cus_A')).body)).toEqual([eA.id]);
    expect(ids((await api.get('/api/v1/webhooks/events?tenant_id=cus_B&type=x.y')).body)).toEqual([eB.id]);
    const events = (await api.get('/api/v1/webhooks/events')).body.data;
    expect(events.map((e: { id: number; tenant_id?: string }) => [e.id, e.tenant_id])).toEqual([
      [eB.id, 'cus_B'],
      [eOwn.id, undefined],
      [eA.id, 'cus_A'],
    ]);
    expect((await api.get(`/api/v1/webhooks/events/${eA.id}`)).body.tenant_id).toBe('cus_A');

    const tenants = (await api.get('/api/v1/webhooks/tenants')).body;
    expect(tenants).toEqual({
      data: [
        { tenant_id: 'cus_B', endpoint_count: 1, created_at: b1.endpoint.created_at },
        { tenant_id: 'cus_A', endpoint_count: 2, created_at: a1.endpoint.created_at },
      ],
      next_cursor: null,
    });
    const first = (await api.get('/api/v1/webhooks/tenants?limit=1')).body;
    expect(first.data.map((t: { tenant_id: string }) => t.tenant_id)).toEqual(['cus_B']);
    const second = (await api.get(`/api/v1/webhooks/tenants?limit=1&cursor=${first.next_cursor}`)).body;
    expect(second).toMatchObject({ data: [{ tenant_id: 'cus_A' }], next_cursor: null });
    // Another account sees none of them.
    const { api: other } = await newAccount();
    expect((await other.get('/api/v1/webhooks/tenants')).body).toEqual({ data: [], next_cursor: null });
    expect((await other.get('/api/v1/webhooks/endpoints?tenant_id=cus_A')).body.data).toEqual([]);
    expect((await other.get('/api/v1/webhooks/events?tenant_id=cus_A')).body.data).toEqual([]);
  });

  it("deleting a tenant deletes its endpoints and cancels their waiting deliveries, and leaves the account's others alone", async () => {
    const { api, accountId } = await newAccount();
    const t1 = await endpointTo(api, 'cus_gone', { status: 500 });
    const t2 = await endpointTo(api, 'cus_gone', { status: 500 });
    const own = await endpointTo(api, undefined, { status: 500 });
    const kept = await endpointTo(api, 'cus_kept', { status: 500 });
    const event = await send(api, 'a.b', 'cus_gone');
    const ownEvent = await send(api, 'a.b');
    const keptEvent = await send(api, 'a.b', 'cus_kept');
    for (const id of [event.id, ownEvent.id, keptEvent.id]) {
      await eventually(async () => ((await api.get(`/api/v1/webhooks/events/${id}`)).body.deliveries as Array<{ status: string }>).every((d) => d.status === 'retrying'), 30_000);
    }

    expect((await api.delete('/api/v1/webhooks/tenants/cus_gone')).status).toBe(204);
    for (const endpoint of [t1.endpoint, t2.endpoint]) {
      expect(await deliveryClosed(fixture.platform.temporal, event.id, endpoint.id)).toBe('CANCELLED');
      expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(404);
    }
    const deliveries = (await api.get(`/api/v1/webhooks/events/${event.id}`)).body.deliveries;
    expect(deliveries.map((d: { status: string }) => d.status)).toEqual(['cancelled', 'cancelled']);
    // The account's own endpoint and the other tenant's keep theirs waiting.
    expect((await deliveryOf(api, ownEvent.id)).status).toBe('retrying');
    expect((await deliveryOf(api, keptEvent.id)).status).toBe('retrying');
    expect(await countIn('endpoints', { account_id: accountId })).toBe(2);
    expect((await api.get('/api/v1/webhooks/tenants')).body.data).toEqual([{ tenant_id: 'cus_kept', endpoint_count: 1, created_at: kept.endpoint.created_at }]);
    // Its events stay.
    expect((await api.get('/api/v1/webhooks/events?tenant_id=cus_gone')).body.data.map((e: { id: number }) => e.id)).toEqual([event.id]);
    // Nothing left to delete.
    const again = await api.delete('/api/v1/webhooks/tenants/cus_gone');
    expect([again.status, again.body.code]).toEqual([404, 'not_found']);
    for (const endpoint of [own.endpoint, kept.endpoint]) expect((await api.delete(`/api/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(204);
  });

  it("deleting a tenant ends its portal sessions, and only its: the token can no longer make the tenant again", async () => {
    const { api } = await newAccount();
    await endpointTo(api, 'cus_leaving');
    const session = async (tenant: string) => apiClient(fixture.platform, (await api.post('/api/v1/webhooks/portal-sessions', { tenant_id: tenant })).body.token);
    const leaving = await session('cus_leaving');
    const staying = await session('cus_staying');
    const onlySessions = await session('cus_no_endpoints');

    expect((await api.delete('/api/v1/webhooks/tenants/cus_leaving')).status).toBe(204);
    const recreate = await leaving.post('/api/v1/webhooks/endpoints', { url: 'https://example.com/back' });
    expect([recreate.status, recreate.body.code]).toEqual([401, 'invalid_portal_token']);
    expect((await api.get('/api/v1/webhooks/tenants')).body.data).toEqual([]);
    expect((await staying.get('/api/v1/webhooks/endpoints')).status).toBe(200);
    // A tenant with sessions but no endpoint yet is found too, and its sessions end.
    expect((await api.delete('/api/v1/webhooks/tenants/cus_no_endpoints')).status).toBe(204);
    expect((await onlySessions.get('/api/v1/webhooks/endpoints')).status).toBe(401);
  });

  it('caps endpoints per tenant and tenants per account, also under concurrent creates; a deleted last endpoint frees its tenant', async () => {
    const { api, accountId } = await newAccount();
    const url = (i: number | string) => `https://127.0.0.1:9/${i}`;
    // Concurrent first creates of one new tenant: they take one of the account's places between them.
    const created = await Promise.all(Array.from({ length: 8 }, (_, i) => api.post('/api/v1/webhooks/endpoints', { url: url(i), tenant_id: 'cus_full' })));
    expect(created.filter((r) => r.status === 201)).toHaveLength(ENDPOINTS_PER_TENANT);
    const refused = created.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual(Array(8 - ENDPOINTS_PER_TENANT).fill([422, 'tenant_endpoint_limit_reached']));
    expect(await countIn('endpoints', { account_id: accountId, tenant_id: 'cus_full' })).toBe(ENDPOINTS_PER_TENANT);

    const tenants = await Promise.all(Array.from({ length: 6 }, (_, i) => api.post('/api/v1/webhooks/endpoints', { url: url(`t${i}`), tenant_id: `cus_${i}` })));
    // cus_full holds one of the account's places.
    expect(tenants.filter((r) => r.status === 201)).toHaveLength(TENANTS_PER_ACCOUNT - 1);
    expect(tenants.filter((r) => r.status !== 201).every((r) => r.status === 422 && r.body.code === 'tenant_limit_reached')).toBe(true);
    const listed = (await api.get('/api/v1/webhooks/tenants')).body.data;
    expect(listed).toHaveLength(TENANTS_PER_ACCOUNT);
    expect(await countIn('endpoints', { account_id: accountId })).toBe(ENDPOINTS_PER_TENANT + TENANTS_PER_ACCOUNT - 1);
    // The account's own endpoints are not a tenant's.
    expect((await api.post('/api/v1/webhooks/endpoints', { url: url('own') })).status).toBe(201);

    // Moving an endpoint into a full tenant is refused and moves nothing.
    const single = tenants.find((r) => r.status === 201)!.body;
    const move = await api.patch(`/api/v1/webhooks/endpoints/${single.id}`, { tenant_id: 'cus_full', description: 'moved' });
    expect([move.status, move.body.code]).toEqual([422, 'tenant_endpoint_limit_reached']);
    expect((await api.get(`/api/v1/webhooks/endpoints/${single.id}`)).body).toMatchObject({ tenant_id: single.tenant_id, description: '' });

    // The single tenant's last endpoint deleted, the tenant is gone and its place taken by a new one.
    expect((await api.post('/api/v1/webhooks/endpoints', { url: url('new'), tenant_id: 'cus_new' })).body.code).toBe('tenant_limit_reached');
    expect((await api.delete(`/api/v1/webhooks/endpoints/${single.id}`)).status).toBe(204);
    expect((await api.get('/api/v1/webhooks/tenants')).body.data.map((t: { tenant_id: string }) => t.tenant_id)).not.toContain(single.tenant_id);
    expect((await api.post('/api/v1/webhooks/endpoints', { url: url('new'), tenant_id: 'cus_new' })).status).toBe(201);
  });

  it('moves an endpoint between tenants with PATCH: its waiting deliveries end cancelled, and cannot be retried for the tenant it left', async () => {
    const { api } = await newAccount();
    const moving = await endpointTo(api, 'cus_from', { status: 500 });
    const event = await send(api, 'a.b', 'cus_from');
    await eventually(async () => (await deliveryOf(api, event.id)).status === 'retrying', 30_000);

    const moved = await api.patch(`/api/v1/webhooks/endpoints/${moving.endpoint.id}`, { tenant_id: 'cus_to' });
    expect([moved.status, moved.body.tenant_id]).toEqual([200, 'cus_to']);
    expect(await deliveryClosed(fixture.platform.temporal, event.id, moving.endpoint.id)).toBe('CANCELLED');
    await eventually(async () => (await deliveryOf(api, event.id)).status === 'cancelled');
    const retry = await api.post(`/api/v1/webhooks/events/${event.id}/deliveries/${moving.endpoint.id}/retry`);
    expect([retry.status, retry.body.code]).toEqual([409, 'endpoint_tenant_changed']);
    expect((await api.get('/api/v1/webhooks/tenants')).body.data.map((t: { tenant_id: string; endpoint_count: number }) => [t.tenant_id, t.endpoint_count])).toEqual([['cus_to', 1]]);

    // Now the new tenant's events reach it, the old tenant's do not; null makes it the account's own.
    expect((await send(api, 'a.b', 'cus_to')).destinations).toBe(1);
    expect((await send(api, 'a.b', 'cus_from')).destinations).toBe(0);
    expect((await api.patch(`/api/v1/webhooks/endpoints/${moving.endpoint.id}`, { tenant_id: null })).body.tenant_id).toBeNull();
    expect((await send(api, 'a.b')).destinations).toBe(1);
    expect((await api.get('/api/v1/webhooks/tenants')).body.data).toEqual([]);
    expect((await api.delete(`/api/v1/webhooks/endpoints/${moving.endpoint.id}`)).status).toBe(204);
  });

  it('pages through tenants and event types of the longest ids and names with the cursors it hands out', async () => {
    const { api } = await newAccount();
    for (const tenant of ['a', 'b']) await endpointTo(api, tenant.repeat(128));
    for (const name of ['a', 'b']) expect((await api.post('/api/v1/webhooks/event-types', { name: name.repeat(256) })).status).toBe(201);
    for (const path of ['/api/v1/webhooks/tenants', '/api/v1/webhooks/event-types']) {
      const first = await api.get(`${path}?limit=1`);
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const second = await api.get(`${path}?limit=1&cursor=${first.body.next_cursor}`);
      expect([second.status, second.body.data.length]).toEqual([200, 1]);
    }
  });

  it("answers a tenant's lists from indexes, not by reading the collection", async () => {
    const { api, accountId } = await newAccount();
    await endpointTo(api, 'cus_idx');
    await send(api, 'a.b', 'cus_idx');
    const plan = async (collection: string, command: Record<string, unknown>) =>
      JSON.stringify((await fixture.platform.db.command({ explain: { find: collection, ...command }, verbosity: 'queryPlanner' })).queryPlanner);
    // The events list's read (Events.list with a tenant): its newest n walk {tenant_key, seq} in order.
    const events = await plan('events', { filter: { tenant_key: `${accountId}/cus_idx`, seq: { $lt: Number.MAX_SAFE_INTEGER } }, sort: { seq: -1 }, limit: 21 });
    expect(events).toMatch(/USING INDEX \S+ \(<expr>=\? AND <expr><\?\)|IXSCAN/);
    expect(events).not.toMatch(/TEMP B-TREE FOR ORDER BY|"stage":"SORT"|\bSCAN events|COLLSCAN/);
    // The endpoints list's: both equalities searched in {account_id, tenant_id, ...}.
    const endpoints = await plan('endpoints', { filter: { account_id: accountId, tenant_id: 'cus_idx' } });
    expect(endpoints).toMatch(/USING INDEX|IXSCAN/);
    expect(endpoints).not.toMatch(/\bSCAN endpoints|COLLSCAN/);
  });

  it.each([
    ['empty', ''],
    ['with a space', 'cus 1'],
    ['with a slash', 'cus/1'],
    ['"." (a URL client resolves it away)', '.'],
    ['".."', '..'],
    ['non-ASCII', 'cüs'],
    ['too long', 'c'.repeat(129)],
    ['not a string', 42],
  ])('refuses a tenant_id %s with 400 naming it, and changes nothing', async (_name, tenantId) => {
    const { api, accountId } = await newAccount();
    const own = await endpointTo(api, undefined);
    const bad = [
      await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/x', tenant_id: tenantId }),
      await api.patch(`/api/v1/webhooks/endpoints/${own.endpoint.id}`, { tenant_id: tenantId, description: 'changed' }),
      await api.post('/api/v1/webhooks/events', { type: 'a.b', data: {}, tenant_id: tenantId }),
    ];
    for (const res of bad) {
      expect([res.status, res.body.code]).toEqual([400, 'invalid_request']);
      expect(res.body.details).toEqual([expect.objectContaining({ path: 'tenant_id' })]);
    }
    if (typeof tenantId === 'string') {
      for (const path of ['endpoints', 'events']) expect((await api.get(`/api/v1/webhooks/${path}?tenant_id=${encodeURIComponent(tenantId)}`)).status).toBe(400);
      // A dot segment never reaches the route: the client resolves `/tenants/..` away, as it would the tenant's every path.
      if (tenantId !== '' && tenantId !== '.' && tenantId !== '..') expect((await api.delete(`/api/v1/webhooks/tenants/${encodeURIComponent(tenantId)}`)).status).toBe(400);
    }
    expect(await countIn('endpoints', { account_id: accountId })).toBe(1);
    expect((await api.get(`/api/v1/webhooks/endpoints/${own.endpoint.id}`)).body).toMatchObject({ tenant_id: null, description: '' });
    expect(await countIn('events', { account_id: accountId })).toBe(0);
    expect(await countIn('tenants', { account_id: accountId })).toBe(0);
  });
});

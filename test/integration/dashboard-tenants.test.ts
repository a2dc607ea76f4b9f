import type { Platform } from '../../src/main/platform';
import { csrfTokenIn } from '../support/dashboard-client';
import { signedUpWithKey } from '../support/dashboard-user';
import { apiClient, startTestPlatform } from '../support/platform';

/**
 * The dashboard's tenants (docs/dashboard.md): the list `GET /api/v1/webhooks/tenants` gives, a portal session made as
 * `POST /api/v1/webhooks/portal-sessions` makes one, a tenant deleted as `DELETE /api/v1/webhooks/tenants/{id}` deletes
 * it, and the endpoints page's tenant column and filter; each change behind the dashboard's form rules (CSRF, one account).
 */
describe("dashboard: the account's tenants", () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false }, env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  /** A signed-up user with an API key, endpoints made with it, and the account's portal sessions counted. */
  async function signedUpUser() {
    const { client, api, accountId } = await signedUpWithKey(platform);
    const endpoint = async (tenantId?: string) => {
      const res = await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/hook', ...(tenantId ? { tenant_id: tenantId } : {}) });
      expect(res.status).toBe(201);
      return res.body as { id: string };
    };
    const sessionCount = () => platform.db.collection('portal_sessions').countDocuments({ account_id: accountId });
    return { client, api, endpoint, sessionCount };
  }
  const tenantRows = (text: string) => [...text.matchAll(/<tr data-tenant-id="([^"]+)">/g)].map((m) => m[1]);

  it('lists the tenants the API lists, newest first, with their endpoint counts, 20 a page, linked from the navigation', async () => {
    const { client, api, endpoint } = await signedUpUser();
    expect((await client.get('/dashboard/tenants')).text).toContain('No tenants yet');
    await endpoint('cus_a');
    await endpoint('cus_a');
    await endpoint();
    for (let i = 1; i <= 20; i++) await endpoint(`cus_${String(i).padStart(2, '0')}`);

    const overview = await client.get('/dashboard');
    expect(overview.text).toContain('<a href="/dashboard/tenants">Tenants</a>');
    const first = await client.get('/dashboard/tenants');
    expect(first.status).toBe(200);
    const fromApi = (await api.get('/api/v1/webhooks/tenants?limit=20')).body as { data: { tenant_id: string; endpoint_count: number }[]; next_cursor: string };
    expect(tenantRows(first.text)).toEqual(fromApi.data.map((t) => t.tenant_id));
    expect(tenantRows(first.text)[0]).toBe('cus_20');
    const older = /<a href="(\/dashboard\/tenants\?cursor=[^"]+)">Older tenants<\/a>/.exec(first.text);
    expect(older).not.toBeNull();
    const second = await client.get(older![1].replaceAll('&amp;', '&'));
    expect(tenantRows(second.text)).toEqual(['cus_a']);
    // Its count, linked to its endpoints.
    expect(second.text).toMatch(/<td class="num"><a href="\/dashboard\/endpoints\?tenant_id=cus_a">2<\/a><\/td>/);
    expect(second.text).not.toContain('Older tenants');
  });

  it('opens a portal session as the API makes one: a 303 to its url (the API\'s page, token in the fragment) whose token sees that tenant only', async () => {
    const { client, api, endpoint, sessionCount } = await signedUpUser();
    const a = await endpoint('cus_A');
    await endpoint('cus_B');
    await endpoint();
    const page = await client.get('/dashboard/tenants');
    expect(page.text).toContain('action="/dashboard/tenants/cus_A/portal-session" target="_blank"');

    const opened = await client.post('/dashboard/tenants/cus_A/portal-session', { _csrf: csrfTokenIn(page.text) });
    expect(opened.status).toBe(303);
    const location = opened.location!;
    const [pageUrl, fragment] = location.split('#');
    const fromApi = (await api.post('/api/v1/webhooks/portal-sessions', { tenant_id: 'cus_A' })).body as { url: string };
    expect(pageUrl).toBe(fromApi.url.split('#')[0]);
    expect(fragment).toMatch(/^token=whpt_[A-Za-z0-9_-]{43}$/);
    expect(await sessionCount()).toBe(2);

    // The API's defaults: an hour, not read-only; the token works as Bearer on the tenant's records only.
    const token = fragment.slice('token='.length);
    const stored = await platform.db.collection('portal_sessions').find({ tenant_id: 'cus_A' }).toArray();
    const lifetimes = stored.map((s) => (s.expires_at as Date).getTime() - (s.created_at as Date).getTime());
    expect(lifetimes).toEqual([3_600_000, 3_600_000]);
    expect(stored.map((s) => s.read_only)).toEqual([false, false]);
    const portal = apiClient(platform, token);
    const listed = await portal.get('/api/v1/webhooks/endpoints');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([a.id]);
    expect((await portal.delete('/api/v1/webhooks/portal-sessions')).status).toBe(403);
  });

  it('makes no session without the CSRF token, from another origin, or for a malformed tenant id', async () => {
    const { client, sessionCount } = await signedUpUser();
    const token = csrfTokenIn((await client.get('/dashboard/tenants')).text);
    expect((await client.post('/dashboard/tenants/cus_A/portal-session', {})).status).toBe(403);
    expect((await client.post('/dashboard/tenants/cus_A/portal-session', { _csrf: token }, { Origin: 'https://evil.example' })).status).toBe(403);
    const malformed = await client.post('/dashboard/tenants/cus%20A/portal-session', { _csrf: token });
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('tenant_id');
    expect(await sessionCount()).toBe(0);
  });

  it("deletes a tenant after a confirmation page, as the API's DELETE does: its endpoints go, another tenant's and the account's stay", async () => {
    const { client, api, endpoint } = await signedUpUser();
    await endpoint('cus_A');
    await endpoint('cus_A');
    const b = await endpoint('cus_B');
    const own = await endpoint();
    const confirm = await client.get('/dashboard/tenants/cus_A/delete');
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Delete tenant <code>cus_A</code>?');
    expect((await client.get('/dashboard/tenants/cus_Z/delete')).status).toBe(404);

    expect((await client.post('/dashboard/tenants/cus_A/delete', {})).status).toBe(403);
    expect((await api.get('/api/v1/webhooks/endpoints?tenant_id=cus_A')).body.data).toHaveLength(2);

    const deleted = await client.post('/dashboard/tenants/cus_A/delete', { _csrf: csrfTokenIn(confirm.text) });
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe('/dashboard/tenants?notice=tenant-deleted');
    expect((await client.get(deleted.location!)).text).toContain('Tenant deleted');
    expect((await api.get('/api/v1/webhooks/endpoints?tenant_id=cus_A')).body.data).toEqual([]);
    expect((await api.get('/api/v1/webhooks/tenants')).body.data.map((t: { tenant_id: string }) => t.tenant_id)).toEqual(['cus_B']);
    expect((await api.get('/api/v1/webhooks/endpoints')).body.data.map((e: { id: string }) => e.id).sort()).toEqual([b.id, own.id].sort());
    // Gone: a second delete is the API's 404.
    expect((await client.post('/dashboard/tenants/cus_A/delete', { _csrf: csrfTokenIn(confirm.text) })).status).toBe(404);
  });

  it("shows each endpoint's tenant and filters the endpoints by tenant_id; a malformed filter is refused on the page", async () => {
    const { client, endpoint } = await signedUpUser();
    const a = await endpoint('cus_A');
    const b = await endpoint('cus_B');
    const own = await endpoint();
    const all = await client.get('/dashboard/endpoints');
    const tenantCells = [...all.text.matchAll(/<td data-testid="endpoint-tenant">(.*?)<\/td>/g)].map((m) => m[1]);
    expect(tenantCells).toEqual([
      '<span class="muted">—</span>',
      '<a href="/dashboard/endpoints?tenant_id=cus_B"><code>cus_B</code></a>',
      '<a href="/dashboard/endpoints?tenant_id=cus_A"><code>cus_A</code></a>',
    ]);
    const listedIds = (text: string) => [...text.matchAll(/<a href="\/dashboard\/endpoints\/(ep_[^"]+)">/g)].map((m) => m[1]);
    expect(listedIds(all.text)).toEqual([own.id, b.id, a.id]);

    const filtered = await client.get('/dashboard/endpoints?tenant_id=cus_A');
    expect(listedIds(filtered.text)).toEqual([a.id]);
    expect(filtered.text).toContain('name="tenant_id" type="text" maxlength="128" value="cus_A"');
    expect(listedIds((await client.get('/dashboard/endpoints?tenant_id=cus_Z')).text)).toEqual([]);

    const malformed = await client.get('/dashboard/endpoints?tenant_id=%3Cscript%3E');
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('The tenant filter must be 1 to 128 characters');
    expect(malformed.text).toContain('value="&lt;script&gt;"');
    expect(listedIds(malformed.text)).toEqual([]);
  });
});

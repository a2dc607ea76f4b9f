import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, startTestPlatform } from '../support/platform';

const TENANT = 'cus_acme';

/**
 * The portal page's settings (docs/tenants-and-portal.md, "Embedding and branding"): every value ends up in a header or
 * the page, so each is held to its shape; a portal session may read them (its page brands itself) and never change them.
 * What the browser does with them is test/e2e/portal.test.ts.
 */
describe('portal settings', () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('refuses settings that are not origins, a colour or an https logo, and a portal session changing them', async () => {
    const { key } = await createAccountWithKey(platform);
    const sender = apiClient(platform, key);
    for (const body of [
      { allowed_origins: ['https://app.example.com/path'] },
      { allowed_origins: ['https://*.example.com'] },
      { allowed_origins: ['http://app.example.com'] },
      { allowed_origins: ["https://a.example 'unsafe-inline'"] },
      { accent_color: 'red; background: url(x)' },
      { logo_url: 'http://example.com/logo.png' },
    ]) {
      const res = await sender.patch('/api/v1/webhooks/portal-settings', body);
      expect([res.status, res.body.code]).toEqual([400, 'invalid_request']);
    }
    expect((await sender.get('/api/v1/webhooks/portal-settings')).body).toEqual({ allowed_origins: [], name: null, logo_url: null, accent_color: null });
    // Stored as browsers send origins.
    const set = await sender.patch('/api/v1/webhooks/portal-settings', { allowed_origins: ['https://App.Example.com:443/', 'https://app.example.com'], logo_url: 'https://cdn.example.com/logo.png' });
    expect(set.body).toMatchObject({ allowed_origins: ['https://app.example.com'], logo_url: 'https://cdn.example.com/logo.png' });

    const token = (await sender.post('/api/v1/webhooks/portal-sessions', { tenant_id: TENANT })).body.token;
    const portal = apiClient(platform, token);
    expect((await portal.get('/api/v1/webhooks/portal-settings')).status).toBe(200);
    expect((await portal.get('/api/v1/webhooks/event-types')).status).toBe(200);
    const refused = await portal.patch('/api/v1/webhooks/portal-settings', { allowed_origins: ['https://evil.example'] });
    expect([refused.status, refused.body.code]).toEqual([403, 'portal_not_allowed']);
    expect((await portal.post('/api/v1/webhooks/event-types', { name: 'x.y', description: '' })).status).toBe(403);
    expect((await sender.get('/api/v1/webhooks/portal-settings')).body.allowed_origins).toEqual(['https://app.example.com']);
  });

  it('serves the page at /portal/<account id> with the account\'s frame-ancestors and logo origin; any other portal path is a 404 nothing may frame', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const sender = apiClient(platform, key);
    await sender.patch('/api/v1/webhooks/portal-settings', { allowed_origins: ['https://app.example.com', 'http://localhost:5173'], logo_url: 'https://cdn.example.com/a/logo.svg' });
    const page = await fetch(`${platform.apiUrl}/portal/${accountId}`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain('frame-ancestors https://app.example.com http://localhost:5173;');
    expect(csp).toContain("img-src 'self' https://cdn.example.com;");
    expect(csp).toContain("script-src 'self';");
    expect(page.headers.get('x-frame-options')).toBeNull();
    expect(page.headers.get('cache-control')).toBe('no-store');
    const body = await page.text();
    expect(body).toContain(`data-account="${accountId}"`);
    expect(body).not.toMatch(/<script>|style=/);

    for (const other of ['/portal', '/portal/acct_unknown', `/portal/${accountId.slice(0, -1)}${accountId.endsWith('x') ? 'y' : 'x'}`, `/portal/${accountId}/x`]) {
      const res = await fetch(`${platform.apiUrl}${other}`);
      expect([other, res.status]).toEqual([other, 404]);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    const posted = await fetch(`${platform.apiUrl}/portal/${accountId}`, { method: 'POST' });
    expect([posted.status, ((await posted.json()) as { code: string }).code]).toEqual([405, 'method_not_allowed']);
  });
});

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/ensure-chromium';
import { PROJECT_ROOT } from '../../src/infra/tools';
import type { Platform } from '../../src/main/platform';
import { GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { apiClient, startTestPlatform } from '../support/platform';

const SCREENSHOTS = path.join(PROJECT_ROOT, 'test-artifacts', 'screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/**
 * In Debian's Chromium: the account's tenants listed with their endpoint counts, a tenant's portal opened in a new tab (a
 * portal session made as the API makes one, its token working for that tenant only), the endpoints page filtered to a
 * tenant, and a tenant deleted after its confirmation page. What the portal page itself shows is not looked at here.
 */
describe('dashboard: tenants and their portal in a real browser', () => {
  let platform: Platform;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const executablePath = await ensureChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    platform = await startTestPlatform({ roles: { api: true, worker: false } });
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: DESKTOP, baseURL: platform.apiUrl });
    page = await context.newPage();
    // A script error or CSP violation on a dashboard page fails the test.
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
  }, 15 * 60 * 1000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const row = (tenantId: string) => page.locator(`tr[data-tenant-id="${tenantId}"]`);

  it("lists the tenants, opens one's portal in a new tab with a session the API would make, filters endpoints by tenant and deletes a tenant", async () => {
    const email = newEmail();
    await page.goto('/dashboard/sign-up');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();

    // The account's endpoints, made with its key: two for cus_acme, one for cus_globex, one of its own.
    const account = (await platform.repositories.accounts.findByEmail(email))!;
    // Room in the burst for the portal page's own calls (its settings and endpoints, with the token), which are the account's.
    await platform.repositories.accounts.setTier(account._id, 'team');
    const { key } = await platform.services.accounts.createKey(account._id, 'weh', 'tenants');
    const api = apiClient(platform, key);
    const endpoint = async (name: string, tenantId?: string) =>
      (await api.post('/api/v1/webhooks/endpoints', { url: `https://127.0.0.1:9/${name}`, ...(tenantId ? { tenant_id: tenantId } : {}) })).body.id as string;
    const acme = [await endpoint('acme-1', 'cus_acme'), await endpoint('acme-2', 'cus_acme')];
    const globex = await endpoint('globex', 'cus_globex');
    await endpoint('own');

    await page.getByRole('link', { name: 'Tenants', exact: true }).click();
    expect(await page.locator('h1').innerText()).toBe('Tenants');
    expect(await page.locator('tr[data-tenant-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-tenant-id')))).toEqual(['cus_globex', 'cus_acme']);
    expect(await row('cus_acme').locator('td.num').innerText()).toBe('2');
    expect(await row('cus_globex').locator('td.num').innerText()).toBe('1');
    await shot('tenants-01-list');

    // Open portal: a new tab, at the link the API answers for a session of this tenant; the portal page takes the token
    // from the fragment into the tab's sessionStorage and removes it from the address (test/e2e/portal.test.ts).
    const [portalTab] = await Promise.all([context.waitForEvent('page'), row('cus_acme').getByRole('button', { name: 'Open portal' }).click()]);
    await portalTab.getByRole('heading', { name: 'Endpoints' }).waitFor();
    const opened = new URL(portalTab.url());
    expect(opened.hash).toBe('');
    const [token] = (await portalTab.evaluate('Object.values(sessionStorage)')) as string[];
    expect(token).toMatch(/^whpt_[A-Za-z0-9_-]{43}$/);
    const fromApi = (await api.post('/api/v1/webhooks/portal-sessions', { tenant_id: 'cus_acme' })).body as { url: string };
    expect(`${opened.origin}${opened.pathname}`).toBe(fromApi.url.split('#')[0]);
    // The dashboard stays where it was, and never shows the token.
    expect(new URL(page.url()).pathname).toBe('/dashboard/tenants');
    expect(await page.content()).not.toContain(token);
    await portalTab.close();

    // The token is a new portal session of cus_acme: as Bearer it lists that tenant's endpoints only.
    const portal = await apiClient(platform, token).get('/api/v1/webhooks/endpoints');
    expect(portal.status).toBe(200);
    expect(portal.body.data.map((e: { id: string }) => e.id).sort()).toEqual([...acme].sort());

    // The count links to the tenant's endpoints: the endpoints page filtered to it, each endpoint showing its tenant.
    await row('cus_acme').getByRole('link', { name: '2' }).click();
    expect(await page.getByLabel('Tenant').inputValue()).toBe('cus_acme');
    expect(await page.getByTestId('endpoint-tenant').allInnerTexts()).toEqual(['cus_acme', 'cus_acme']);
    await shot('tenants-02-endpoints-of-a-tenant');
    await page.getByRole('link', { name: 'Clear' }).click();
    expect(await page.getByTestId('endpoint-tenant').allInnerTexts()).toEqual(['—', 'cus_globex', 'cus_acme', 'cus_acme']);
    await page.getByLabel('Tenant').fill('cus_globex');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(await page.getByTestId('endpoint-tenant').allInnerTexts()).toEqual(['cus_globex']);

    // Delete a tenant: a confirmation page, then its endpoints are gone and the other tenant's stay.
    await page.getByRole('link', { name: 'Tenants', exact: true }).click();
    await row('cus_globex').getByRole('link', { name: /Delete/ }).click();
    expect(await page.locator('h1').innerText()).toBe('Delete tenant cus_globex?');
    await shot('tenants-03-delete');
    await page.getByRole('button', { name: 'Delete tenant' }).click();
    expect(await page.getByRole('status').first().innerText()).toContain('Tenant deleted');
    expect(await page.locator('tr[data-tenant-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-tenant-id')))).toEqual(['cus_acme']);
    expect((await api.get(`/api/v1/webhooks/endpoints/${globex}`)).status).toBe(404);

    // At phone width nothing overflows the page sideways.
    await page.setViewportSize(PHONE);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await shot('tenants-04-list-375px');
    await page.setViewportSize(DESKTOP);

    expect(problems).toEqual([]);
  }, 120_000);
});

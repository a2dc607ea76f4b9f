import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Browser, BrowserContext, chromium, FrameLocator, Page } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/ensure-chromium';
import { PROJECT_ROOT } from '../../src/infra/tools';
import type { Platform } from '../../src/main/platform';
import { GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { ExportedSpan, startOtlpSink } from '../support/otlp-sink';
import { roleEnv, spawnRole } from '../support/child-role';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { sendEventAccepted } from '../support/send-event';
import { verifySignature } from '../support/spec-signature';

const SCREENSHOTS = path.join(PROJECT_ROOT, 'test-artifacts', 'screenshots');
const TENANT = 'cus_acme';
const RECEIVER_ANSWER = 'thanks from the receiver';

/** A page of the sender's own app on an origin of its own (a port of its own on 127.0.0.1), showing the portal in an iframe. */
async function startEmbedder() {
  let src = 'about:blank';
  const server = http.createServer((_req, res) => {
    const attribute = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>The sender's app</title></head><body><h1>The sender's app</h1>
<iframe id="portal" title="Webhooks portal" src="${attribute}" width="1100" height="1500"></iframe></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    /** Its page, framing `portalUrl`. */
    page: (portalUrl: string) => {
      src = portalUrl;
      return `${origin}/`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The tenants' portal in Debian's Chromium against a real platform and a real HTTPS receiver: the sender makes a portal
 * session, its app (another origin, allowed by the account) frames the portal, and the tenant works in the frame.
 * An origin the account does not allow cannot frame it; an expired session is refused.
 */
describe('portal in a real browser', () => {
  let platform: Platform;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let allowed: Awaited<ReturnType<typeof startEmbedder>>;
  let other: Awaited<ReturnType<typeof startEmbedder>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let offsetMs = 0;
  const problems: string[] = [];

  beforeAll(async () => {
    const executablePath = await ensureChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    // One after another, so that afterAll stops whatever started when a later one fails.
    platform = await startTestPlatform({ clock: () => new Date(Date.now() + offsetMs) });
    receiver = await startReceiver(() => ({ status: 200, body: RECEIVER_ANSWER }));
    allowed = await startEmbedder();
    other = await startEmbedder();
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    page = await context.newPage();
    // A script error or a CSP violation in the portal fails the journey (the refused frame is looked for on its own page).
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
  }, 15 * 60 * 1000);

  afterEach(() => {
    offsetMs = 0;
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await receiver?.close();
    await allowed?.close();
    await other?.close();
  });

  const shot = (p: Page, name: string) => p.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

  it('is framed by an allowed origin, where the tenant subscribes from the catalog, gets a test event, rotates, pauses and resumes', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const sender = apiClient(platform, key);
    for (const type of [
      { name: 'invoice.paid', description: 'An invoice was paid in full.', example: { invoice_id: 'in_42', amount: 4200, currency: 'eur' } },
      { name: 'invoice.voided', description: 'An invoice was voided.', example: { invoice_id: 'in_43' } },
    ]) {
      expect((await sender.post('/api/v1/webhooks/event-types', type)).status).toBe(201);
    }
    // The account allows its app's origin, and brands the portal.
    const settings = await sender.patch('/api/v1/webhooks/portal-settings', { allowed_origins: [allowed.origin], name: 'Acme Billing', accent_color: '#0a7f5c' });
    expect([settings.status, settings.body]).toEqual([200, { allowed_origins: [allowed.origin], name: 'Acme Billing', logo_url: null, accent_color: '#0a7f5c' }]);

    // The sender makes a portal session for its customer and its app frames the link.
    const made = await sender.post('/api/v1/webhooks/portal-sessions', { tenant_id: TENANT });
    expect(made.status).toBe(201);
    expect(made.body.url).toBe(`${platform.apiUrl}/portal/${accountId}#token=${made.body.token}`);
    await page.goto(allowed.page(made.body.url));
    const portal: FrameLocator = page.frameLocator('#portal');
    await portal.getByRole('heading', { name: 'Endpoints' }).waitFor();

    // The token has left the frame's address (kept in its sessionStorage only); the branding is the account's.
    const frame = page.frames().find((f) => f.url().startsWith(`${platform.apiUrl}/portal/`))!;
    expect(frame.url()).toBe(`${platform.apiUrl}/portal/${accountId}`);
    expect(await frame.evaluate('location.href')).toBe(`${platform.apiUrl}/portal/${accountId}`);
    expect(await frame.evaluate('Object.values(sessionStorage)')).toEqual([made.body.token]);
    expect(await portal.locator('#brand-name').innerText()).toBe('Acme Billing');
    expect(await frame.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--accent').trim()")).toBe('#0a7f5c');
    // A reload keeps the session: the address has no token any more, the tab's sessionStorage has.
    await Promise.all([page.waitForEvent('framenavigated', (f) => f === frame), frame.evaluate('setTimeout(() => location.reload(), 0)')]);
    await frame.waitForLoadState();
    await portal.getByRole('heading', { name: 'Endpoints' }).waitFor();
    expect(await portal.locator('#brand-name').innerText()).toBe('Acme Billing');

    // The catalog, with descriptions and examples.
    await portal.getByRole('button', { name: 'Event types' }).click();
    await portal.getByRole('heading', { name: 'invoice.paid' }).waitFor();
    expect(await portal.getByText('An invoice was paid in full.').count()).toBe(1);
    expect(JSON.parse(await portal.getByTestId('event-type-example').first().innerText())).toEqual({ invoice_id: 'in_42', amount: 4200, currency: 'eur' });
    await shot(page, 'portal-01-event-types');

    // An endpoint subscribed to one type of the catalog: the tenant's, as the sender sees it.
    await portal.getByRole('button', { name: 'Endpoints' }).click();
    await portal.getByRole('button', { name: 'Add endpoint' }).click();
    await portal.getByLabel('Endpoint URL').fill(`${receiver.url}/hook`);
    await portal.getByRole('checkbox', { name: /^invoice\.paid/ }).check();
    await portal.getByLabel('Description').fill('<b>billing</b> receiver');
    await shot(page, 'portal-02-add-endpoint');
    await portal.getByRole('button', { name: 'Add endpoint' }).click();
    await portal.getByRole('heading', { name: 'Endpoint', exact: true }).waitFor();
    expect(await portal.getByTestId('endpoint-url').innerText()).toBe(`${receiver.url}/hook`);
    expect(await portal.getByTestId('endpoint-events').innerText()).toBe('invoice.paid');
    // Text, not markup.
    expect(await portal.getByText('<b>billing</b> receiver').count()).toBe(1);
    const listed = await sender.get(`/api/v1/webhooks/endpoints?tenant_id=${TENANT}`);
    expect(listed.body.data.map((e: { url: string; events: string[] }) => [e.url, e.events])).toEqual([[`${receiver.url}/hook`, ['invoice.paid']]]);
    const endpointId: string = listed.body.data[0].id;

    // A test event of the type, its data the example with a ledger id beyond 2^53 added: delivered to the receiver with
    // that id's digits, the attempt and its response shown.
    expect(await portal.getByLabel('Event type', { exact: true }).inputValue()).toBe('invoice.paid');
    const example = JSON.parse(await portal.getByLabel('Data (a JSON object)').inputValue());
    await portal.getByLabel('Data (a JSON object)').fill(`${JSON.stringify(example).slice(0, -1)},"ledger_id":9007199254740993}`);
    await portal.getByRole('button', { name: 'Send test event' }).click();
    await portal.getByRole('heading', { name: /^Event #\d+$/ }).waitFor();
    const deadline = Date.now() + 30_000;
    while ((await portal.getByTestId('delivery-status').innerText()) !== 'succeeded') {
      if (Date.now() > deadline) throw new Error('the test event was not delivered within 30 s');
      await new Promise((r) => setTimeout(r, 500));
      await portal.getByRole('button', { name: 'Refresh' }).click();
      await portal.getByTestId('delivery-status').waitFor();
    }
    expect(await portal.getByTestId('event-status').innerText()).toBe('delivered');
    expect(await portal.getByTestId('attempt').count()).toBe(1);
    expect(await portal.getByTestId('attempt-status-code').innerText()).toBe('200');
    expect(await portal.getByTestId('attempt-response-body').innerText()).toBe(RECEIVER_ANSWER);
    await shot(page, 'portal-03-delivered');
    expect(receiver.received).toHaveLength(1);
    const delivered = receiver.received[0];
    expect(JSON.parse(delivered.rawBody)).toMatchObject({ type: 'invoice.paid', data: { invoice_id: 'in_42', amount: 4200, currency: 'eur' } });
    expect(delivered.rawBody).toContain('"ledger_id":9007199254740993}');
    expect(await portal.getByTestId('event-data').innerText()).toContain('"ledger_id": 9007199254740993');

    // Back to the endpoint: reveal the secret (it signed the delivery), rotate it.
    await portal.getByRole('button', { name: 'Endpoints' }).click();
    await portal.getByRole('button', { name: `${receiver.url}/hook` }).click();
    await portal.getByRole('button', { name: 'Reveal secret' }).click();
    await portal.getByText(/^whsec_/).waitFor();
    const secret = (await portal.getByTestId('signing-secret').innerText()).trim();
    expect(verifySignature(secret, delivered.rawBody, delivered.headers['x-webhook-signature'])).toBe(true);
    await portal.getByRole('button', { name: 'Rotate secret' }).click();
    await portal.getByText('Secret rotated').waitFor();
    const rotated = (await portal.getByTestId('signing-secret').innerText()).trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect((await sender.get(`/api/v1/webhooks/endpoints/${endpointId}/secret`)).body.secret).toBe(rotated);

    // Pause, then resume.
    await portal.getByRole('button', { name: 'Pause deliveries' }).click();
    await portal.getByText('Deliveries paused').waitFor();
    expect(await portal.getByTestId('endpoint-status').innerText()).toBe('enabled paused');
    expect((await sender.get(`/api/v1/webhooks/endpoints/${endpointId}`)).body.paused).toBe(true);
    await shot(page, 'portal-04-endpoint-paused');
    await portal.getByRole('button', { name: 'Resume deliveries' }).click();
    await portal.getByText('Deliveries resumed').waitFor();
    expect(await portal.getByTestId('endpoint-status').innerText()).toBe('enabled');
    expect((await sender.get(`/api/v1/webhooks/endpoints/${endpointId}`)).body.paused).toBe(false);

    // The session expires (the platform's clock moves past its hour): the frame's next call says so and forgets the token.
    offsetMs = 2 * 60 * 60 * 1000;
    await portal.getByRole('button', { name: 'Events' }).click();
    await portal.getByRole('heading', { name: 'This link has expired' }).waitFor();
    expect(await frame.evaluate('sessionStorage.length')).toBe(0);
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);

    // Opened again, the expired link shows the same page, top-level too; the API refuses the token.
    const fresh = await (await browser.newContext()).newPage();
    await fresh.goto(made.body.url);
    await fresh.getByRole('heading', { name: 'This link has expired' }).waitFor();
    expect(await fresh.evaluate('location.href')).toBe(made.body.url.split('#')[0]);
    await shot(fresh, 'portal-05-expired');
    const refused = await apiClient(platform, made.body.token).get('/api/v1/webhooks/endpoints');
    expect([refused.status, refused.body.code]).toEqual([401, 'invalid_portal_token']);
    offsetMs = 0;
  });

  it('cannot be framed by an origin the account does not allow (CSP frame-ancestors)', async () => {
    const { key } = await createAccountWithKey(platform);
    const sender = apiClient(platform, key);
    expect((await sender.patch('/api/v1/webhooks/portal-settings', { allowed_origins: [allowed.origin] })).status).toBe(200);
    const made = await sender.post('/api/v1/webhooks/portal-sessions', { tenant_id: TENANT });
    const pageUrl = made.body.url.split('#')[0];
    expect((await fetch(pageUrl)).headers.get('content-security-policy')).toContain(`frame-ancestors ${allowed.origin};`);

    const tab = await context.newPage();
    const refusals: string[] = [];
    tab.on('console', (msg) => {
      if (msg.text().includes('frame-ancestors')) refusals.push(msg.text());
    });
    // goto waits for the page's load event, which waits for its frame's: the frame has been answered by then.
    await tab.goto(other.page(made.body.url));
    await tab.getByRole('heading', { name: "The sender's app" }).waitFor();
    // Nothing of the portal is in the frame: no frame is at its address, and not even the page's static shell is there.
    expect(tab.frames().map((f) => f.url())).not.toContainEqual(expect.stringContaining(`${platform.apiUrl}/portal/`));
    expect(await tab.frameLocator('#portal').locator('#brand-name').count()).toBe(0);
    // And Chromium says why, naming the framed origin and the directive ("Framing '<origin>/' violates ... "frame-ancestors <allowed>". The request has been blocked.").
    await expectEventually(() => refusals.length > 0);
    expect(refusals[0]).toContain(`'${platform.apiUrl}/'`);
    expect(refusals[0]).toContain(`"frame-ancestors ${allowed.origin}"`);
    await shot(tab, 'portal-06-refused-origin');
    await tab.close();

    // With no origin allowed, no page may frame it: the allowed origin of a moment ago is refused too.
    expect((await sender.patch('/api/v1/webhooks/portal-settings', { allowed_origins: [] })).status).toBe(200);
    const res = await fetch(pageUrl);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none';");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('is set up in the dashboard: allowed origins and branding, a refusal in the API\'s words changing nothing', async () => {
    const tab = await context.newPage();
    tab.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    const email = newEmail();
    await tab.goto(`${platform.apiUrl}/dashboard/sign-up`);
    await tab.getByLabel('Email').fill(email);
    await tab.getByLabel('Password').fill(GOOD_PASSWORD);
    await tab.getByRole('button', { name: 'Create account' }).click();
    await tab.getByRole('link', { name: 'Tenant portal', exact: true }).click();
    expect(await tab.locator('h1').first().innerText()).toBe('Tenant portal');

    await tab.getByLabel('Origins allowed to embed the portal').fill(`${allowed.origin}\nhttps://app.example.com/settings`);
    await tab.getByLabel('Name').fill('Acme Billing');
    await tab.getByRole('button', { name: 'Save portal settings' }).click();
    expect(await tab.getByRole('alert').innerText()).toContain('allowed_origins');
    const stored = () => platform.db.collection('accounts').findOne({ email });
    expect((await stored())?.portal_settings).toBeUndefined();

    await tab.getByLabel('Origins allowed to embed the portal').fill(`${allowed.origin}\nhttps://App.Example.com`);
    await tab.getByLabel('Accent colour').fill('#0A7F5C');
    await tab.getByRole('button', { name: 'Save portal settings' }).click();
    expect(await tab.getByRole('status').first().innerText()).toContain('Portal settings saved');
    expect(await tab.getByLabel('Origins allowed to embed the portal').inputValue()).toBe(`${allowed.origin}\nhttps://app.example.com`);
    expect((await stored())?.portal_settings).toEqual({ allowed_origins: [allowed.origin, 'https://app.example.com'], name: 'Acme Billing', logo_url: null, accent_color: '#0a7f5c' });
    await shot(tab, 'portal-07-dashboard-settings');
    await tab.close();
  });

  it('pages through the tenant\'s events, 50 at a time, older and back to the newest', async () => {
    const sender = apiClient(platform, (await createAccountWithKey(platform)).key);
    const ids: number[] = [];
    for (let i = 0; i < 55; i++) ids.push((await sendEventAccepted(sender, { type: 'order.paged', data: { i }, tenant_id: TENANT })).body.id);
    const made = await sender.post('/api/v1/webhooks/portal-sessions', { tenant_id: TENANT });
    const tab = await (await browser.newContext()).newPage();
    await tab.goto(made.body.url);
    await tab.getByRole('button', { name: 'Events' }).click();
    const shownIds = async () => (await tab.locator('tbody tr td:first-child').allInnerTexts()).map((text) => Number(text.replace('#', '')));
    await tab.getByRole('button', { name: `#${ids[54]}`, exact: true }).waitFor();
    expect(await shownIds()).toEqual(ids.slice(5).reverse());
    await tab.getByRole('button', { name: 'Older events' }).click();
    await tab.getByRole('button', { name: `#${ids[0]}`, exact: true }).waitFor();
    expect(await shownIds()).toEqual(ids.slice(0, 5).reverse());
    expect(await tab.getByRole('button', { name: 'Older events' }).count()).toBe(0);
    await tab.getByRole('button', { name: 'Newest events' }).click();
    await tab.getByRole('button', { name: `#${ids[54]}`, exact: true }).waitFor();
    expect(await shownIds()).toHaveLength(50);
    await tab.context().close();
  });

  it("leaves its token in no log line and no span of the process serving it (npm start's entry, logging at trace, tracing every call)", async () => {
    const sink = await startOtlpSink();
    const role = spawnRole('start', { ...roleEnv(platform), LOG_LEVEL: 'trace', OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const tabContext = await browser.newContext();
    try {
      const apiUrl = (await role.waitFor(/API\s+(http:\/\/127\.0\.0\.1:\d+)/))[1] as string;
      await role.waitFor(/Platform ready/);
      const sender = apiClient({ apiUrl } as Platform, (await createAccountWithKey(platform)).key);
      expect((await sender.post('/api/v1/webhooks/event-types', { name: 'invoice.paid', description: 'Paid.', example: { n: 1 } })).status).toBe(201);
      const made = await sender.post('/api/v1/webhooks/portal-sessions', { tenant_id: TENANT });
      const token: string = made.body.token;

      // The page's calls: load, settings, lists, an endpoint added, its secret, a test event; then a refusal (401) once the sessions are revoked.
      const tab = await tabContext.newPage();
      await tab.goto(made.body.url);
      await tab.getByRole('heading', { name: 'Endpoints' }).waitFor();
      await tab.getByRole('button', { name: 'Add endpoint' }).click();
      await tab.getByLabel('Endpoint URL').fill(`${receiver.url}/secrecy`);
      await tab.getByRole('checkbox', { name: /^invoice\.paid/ }).check();
      await tab.getByRole('button', { name: 'Add endpoint' }).click();
      await tab.getByRole('button', { name: 'Reveal secret' }).click();
      await tab.getByText(/^whsec_/).waitFor();
      await tab.getByRole('button', { name: 'Send test event' }).click();
      await tab.getByRole('heading', { name: /^Event #\d+$/ }).waitFor();
      expect((await sender.delete('/api/v1/webhooks/portal-sessions')).status).toBe(200);
      await tab.getByRole('button', { name: 'Events' }).click();
      await tab.getByRole('heading', { name: 'This link has expired' }).waitFor();

      // The spans of the page's calls, the refused one last, have been exported (in batches, every 5 s).
      const served = (s: ExportedSpan) => s.kind === 2 && JSON.stringify(s.attributes).includes('/api/v1/webhooks/');
      await eventually(async () => sink.spans.some((s) => served(s) && Object.values(s.attributes).includes(401)) || undefined, 60_000);
      expect(sink.spans.filter(served).length).toBeGreaterThanOrEqual(8);
      expect(role.output()).toContain('"msg":"cost catalog synced"'); // the process's log is what is searched below
      expect(role.output()).not.toContain(token);
      expect(sink.raw.join('\n')).not.toContain(token);
      expect(role.output()).not.toContain(token.slice('whpt_'.length));
      expect(sink.raw.join('\n')).not.toContain(token.slice('whpt_'.length));
    } finally {
      await tabContext.close();
      await role.stop();
      await sink.close();
    }
  }, 240_000);
});

async function expectEventually(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Browser, BrowserContext, chromium, Locator, Page } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/ensure-chromium';
import { estimateCost } from '../../src/domain/cost-estimator';
import { API_KEY_PATTERN } from '../../src/domain/keys/api-key';
import { loadCatalogFile } from '../../src/infra/load-catalog-file';
import { PROJECT_ROOT } from '../../src/infra/tools';
import type { Platform } from '../../src/main/platform';
import { entryKey } from '../../src/transport/http/dashboard/templates/cost-estimator';
import { usd } from '../../src/transport/http/dashboard/templates/format';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { deliveryClosed, waitsBefore } from '../support/delivery-workflows';
import { apiClient, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { verifySignature } from '../support/spec-signature';

const SCREENSHOTS = path.join(PROJECT_ROOT, 'test-artifacts', 'screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/**
 * The whole dashboard journey in Debian's Chromium against a real platform (API + worker on
 * Temporal and the embedded store) and a real HTTPS receiver. Each page is saved as a screenshot
 * under test-artifacts/screenshots for review.
 */
describe('dashboard in a real browser', () => {
  let platform: Platform;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    // Installing Chromium with apt-get on a fresh machine can take minutes.
    const executablePath = await ensureChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    [platform, receiver] = await Promise.all([startTestPlatform(), startReceiver()]);
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: DESKTOP, baseURL: platform.apiUrl });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.apiUrl });
    page = await context.newPage();
    // Any script error or CSP violation (e.g. an inline style or script) fails the journey.
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('response', (res) => {
      if (res.status() === 404) problems.push(`404: ${res.url()}`);
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
  }, 15 * 60 * 1000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await receiver?.close();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const heading = () => page.locator('h1').first().innerText();

  /** A new tab; a script error on it fails the journey. */
  async function openTab(ctx: BrowserContext): Promise<Page> {
    const tab = await ctx.newPage();
    tab.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    return tab;
  }

  /** A new tab in which a new user has signed up, with an endpoint to `url`: answers the tab, the endpoint page's path and the user's email. */
  async function signedUpWithEndpoint(ctx: BrowserContext, url: string): Promise<{ tab: Page; endpointPath: string; email: string }> {
    const tab = await openTab(ctx);
    const email = newEmail();
    await tab.goto('/dashboard/sign-up');
    await tab.getByLabel('Email').fill(email);
    await tab.getByLabel('Password').fill(GOOD_PASSWORD);
    await tab.getByRole('button', { name: 'Create account' }).click();
    await tab.getByRole('link', { name: 'Webhook endpoints', exact: true }).click();
    await tab.getByLabel('Endpoint URL').fill(url);
    await tab.getByRole('button', { name: 'Add endpoint' }).click();
    return { tab, endpointPath: new URL(tab.url()).pathname, email };
  }

  it('takes a new user from sign-up to a delivered test event, a revoked key and a cost estimate', async () => {
    // Signed out, the dashboard sends you to sign in.
    await page.goto('/dashboard');
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await shot('01-sign-in');

    // Sign up.
    await page.getByRole('link', { name: 'Create an account' }).click();
    expect(await heading()).toBe('Create an account');
    await page.getByLabel('Email').fill(newEmail());
    await page.getByLabel('Password').fill(GOOD_PASSWORD);
    await shot('02-sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();

    // Overview: tier, usage against quota, burst limit.
    expect(await heading()).toBe('Overview');
    expect(await page.getByTestId('tier').innerText()).toBe('Free');
    expect(await page.getByTestId('usage').innerText()).toBe('0 of 500');
    expect(await page.getByTestId('burst').innerText()).toContain('10');
    await shot('03-overview');
    await page.setViewportSize(PHONE);
    await shot('03-overview-375px');
    // At phone width nothing overflows the page sideways.
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.setViewportSize(DESKTOP);

    // Keyboard: the first Tab lands on the skip link.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Skip to content');

    // Create a Webhook Reliability key: shown once, in full.
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByLabel('Product').selectOption('weh');
    await page.getByLabel('Label').fill('production server');
    await shot('04-keys-empty');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await heading()).toBe('Your new API key');
    const key = (await page.getByTestId('new-key').innerText()).trim();
    expect(key).toMatch(API_KEY_PATTERN);
    expect(key.startsWith('svc_live_weh_')).toBe(true);
    expect(await page.getByRole('alert').innerText()).toContain("You won't see it again");
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await shot('05-new-key');
    expect((await fetch(`${platform.apiUrl}/api/v1/webhooks/endpoints`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);

    // Reload: the key is gone for good; the list shows only its prefix and last four.
    await page.reload();
    expect(new URL(page.url()).pathname).toBe('/dashboard/keys');
    const keysPage = await page.content();
    expect(keysPage).not.toContain(key);
    expect(keysPage).toContain(`svc_live_weh_…${key.slice(-4)}`);
    expect(await page.getByRole('status').first().innerText()).toContain('shown only once');
    await shot('06-keys-list');

    // Register an endpoint pointing at the local HTTPS receiver.
    await page.getByRole('link', { name: 'Webhook endpoints', exact: true }).click();
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/hook`);
    await page.getByLabel('Event types').fill('test.*\norder.created');
    await page.getByLabel('Description').fill('Local receiver');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.getByTestId('endpoint-url').innerText()).toBe(`${receiver.url}/hook`);
    expect(await page.getByTestId('endpoint-status').innerText()).toBe('enabled');
    // Its health, and the form that recovers its failed deliveries.
    expect(await page.getByTestId('endpoint-health').innerText()).toMatch(/Consecutive failed deliveries\s+0/);
    expect(await page.getByLabel('Since (UTC)').isVisible()).toBe(true);
    await shot('07-endpoint-detail');
    // Pause, then resume: the endpoint says it is paused while it is, and the button turns back.
    await page.getByRole('button', { name: 'Pause deliveries' }).click();
    expect(await page.getByRole('status').first().innerText()).toContain('Deliveries paused');
    expect(await page.getByTestId('endpoint-status').innerText()).toBe('enabled paused');
    await page.getByRole('button', { name: 'Resume deliveries' }).click();
    expect(await page.getByRole('status').first().innerText()).toContain('Deliveries resumed');
    expect(await page.getByTestId('endpoint-status').innerText()).toBe('enabled');
    await page.getByRole('link', { name: 'Reveal signing secret' }).click();
    const secret = (await page.getByTestId('signing-secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await shot('08-endpoint-secret');
    await page.getByRole('link', { name: 'Webhook endpoints', exact: true }).click();
    await shot('09-endpoints-list');

    // Send a test event and watch it being delivered.
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByLabel('Event type').fill('test.ping');
    await page.getByLabel('Data (a JSON object)').fill('{"order": 42, "note": "<b>not bold</b>"}');
    await page.getByRole('button', { name: 'Send test event' }).click();
    expect(await heading()).toMatch(/^Event #\d+$/);
    const deadline = Date.now() + 30_000;
    while ((await page.getByTestId('delivery-status').innerText()) !== 'succeeded') {
      if (Date.now() > deadline) throw new Error('the delivery did not succeed within 30 s');
      await new Promise((r) => setTimeout(r, 500));
      await page.getByRole('link', { name: 'Refresh' }).click();
    }
    expect(await page.getByTestId('event-status').innerText()).toBe('delivered');
    expect(await page.getByTestId('attempt').count()).toBe(1);
    expect(await page.getByTestId('attempt-status-code').innerText()).toBe('200');
    await shot('10-event-detail');
    expect(receiver.received).toHaveLength(1);
    const delivered = receiver.received[0];
    expect(JSON.parse(delivered.rawBody)).toMatchObject({ type: 'test.ping', data: { order: 42, note: '<b>not bold</b>' } });
    expect(verifySignature(secret, delivered.rawBody, delivered.headers['x-webhook-signature'])).toBe(true);

    await page.getByRole('link', { name: '← All events' }).click();
    await page.getByLabel('Status').selectOption('delivered');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(await page.locator('tbody tr').count()).toBe(1);
    await shot('11-events-list');

    // Revoke the key, with a confirmation step; the API refuses it at once.
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByRole('link', { name: /Revoke/ }).click();
    expect(await heading()).toBe('Revoke key “production server”?');
    await shot('12-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    expect(await page.getByRole('status').first().innerText()).toContain('The key was revoked');
    expect(await page.locator('tbody tr').first().innerText()).toContain('revoked');
    await shot('13-key-revoked');
    expect((await fetch(`${platform.apiUrl}/api/v1/webhooks/endpoints`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(401);

    // Cost estimator: two items, totals as the domain computes them.
    const catalog = await loadCatalogFile();
    const compute = catalog.entries.find((e) => e.priceUnit === 'per hour')!;
    const storage = catalog.entries.find((e) => e.priceUnit === 'per GB/month')!;
    const expected = estimateCost(catalog, [
      { provider: compute.provider, service: compute.service, instance: compute.instance, quantity: 2, hoursPerMonth: 730 },
      { provider: storage.provider, service: storage.service, instance: storage.instance, quantity: 1, gbPerMonth: 500 },
    ]);
    await page.getByRole('link', { name: 'Cost estimator', exact: true }).click();
    await page.locator('#entry_0').selectOption(entryKey(compute));
    await page.locator('#quantity_0').fill('2');
    await page.locator('#hours_0').fill('730');
    await page.locator('#entry_1').selectOption(entryKey(storage));
    await page.locator('#quantity_1').fill('1');
    await page.locator('#gb_1').fill('500');
    await page.getByRole('button', { name: 'Estimate', exact: true }).click();
    expect(await page.getByTestId('total-monthly').innerText()).toBe(usd(expected.totalMonthlyUsd));
    expect(await page.getByTestId('total-annual').innerText()).toBe(usd(expected.totalAnnualUsd));
    expect(await page.getByTestId('breakdown-line').count()).toBe(2);
    expect(expected.totalMonthlyUsd).toBeGreaterThan(0);
    await shot('14-cost-estimator');
    await page.setViewportSize(PHONE);
    await shot('14-cost-estimator-375px');
    await page.setViewportSize(DESKTOP);

    // The overview counts the one accepted API call made with the key, and the dashboard writes that
    // are metered like API operations (the key created, the endpoint registered, paused and resumed, the
    // test event sent); not the key's revocation (never metered), nor the 401 after it.
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    expect(await page.getByTestId('usage').innerText()).toBe('6 of 500');

    // Sign out.
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    expect(await page.getByRole('status').first().innerText()).toBe('You have signed out.');
    await page.goto('/dashboard/keys');
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');

    expect(problems).toEqual([]);
  }, 5 * 60 * 1000);

  it('manages an endpoint: edit, disable, retry a cancelled delivery, rotate the secret, delete', async () => {
    let healthy = false;
    const flaky = await startReceiver(() => (healthy ? { status: 200 } : { status: 503, body: 'down for maintenance' }));
    const ctx = await browser.newContext({ viewport: DESKTOP, baseURL: platform.apiUrl });
    try {
      // Register, then edit the patterns and description.
      const { tab, endpointPath } = await signedUpWithEndpoint(ctx, `${flaky.url}/hook`);
      const snap = (name: string) => tab.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
      const h1 = () => tab.locator('h1').first().innerText();
      const status = () => tab.getByRole('status').first().innerText();
      await tab.getByLabel('Event types').fill('billing.*');
      await tab.getByLabel('Description').fill('Billing system');
      await tab.getByRole('button', { name: 'Save changes' }).click();
      expect(await status()).toBe('Endpoint saved.');
      expect(await tab.locator('section[aria-labelledby="summary-heading"] dl.details').innerText()).toContain('billing.*');
      await snap('15-endpoint-edited');

      // An invalid edit is explained on the form and changes nothing.
      await tab.getByLabel('Endpoint URL').fill('http://insecure.example/hook');
      await tab.getByRole('button', { name: 'Save changes' }).click();
      expect(await tab.getByRole('alert').innerText()).toMatch(/https/i);
      expect(await tab.getByTestId('endpoint-url').innerText()).toBe(`${flaky.url}/hook`);

      // A failing destination: the delivery retries; disabling the endpoint cancels it.
      await tab.getByRole('link', { name: 'Events', exact: true }).click();
      await tab.getByLabel('Event type').fill('billing.invoice_paid');
      await tab.getByLabel('Data (a JSON object)').fill('{"invoice": "in_1"}');
      await tab.getByRole('button', { name: 'Send test event' }).click();
      const eventPath = new URL(tab.url()).pathname;
      const waitForDelivery = async (wanted: string) => {
        const deadline = Date.now() + 30_000;
        while ((await tab.getByTestId('delivery-status').innerText()) !== wanted) {
          if (Date.now() > deadline) throw new Error(`the delivery did not become ${wanted} within 30 s`);
          await new Promise((r) => setTimeout(r, 500));
          await tab.goto(eventPath);
        }
      };
      await waitForDelivery('retrying');
      expect(await tab.getByTestId('attempt-status-code').first().innerText()).toBe('503');
      expect(await tab.locator('dl.details').nth(1).innerText()).toMatch(/Next attempt\s+\d{4}-\d{2}-\d{2}/);
      await snap('16-delivery-retrying');

      await tab.goto(endpointPath);
      await tab.getByRole('button', { name: 'Disable endpoint' }).click();
      expect(await tab.getByTestId('endpoint-status').innerText()).toBe('disabled');
      await tab.goto(eventPath);
      await waitForDelivery('cancelled');
      expect(await tab.getByTestId('event-status').innerText()).toBe('failed');

      // Retrying needs the endpoint enabled; then a new round succeeds.
      await tab.getByRole('button', { name: 'Retry delivery' }).click();
      expect(await tab.getByRole('alert').innerText()).toContain('disabled');
      await snap('17-retry-refused');
      await tab.goto(endpointPath);
      await tab.getByRole('button', { name: 'Enable endpoint' }).click();
      expect(await status()).toBe('Endpoint enabled.');
      healthy = true;
      await tab.goto(eventPath);
      await tab.getByRole('button', { name: 'Retry delivery' }).click();
      expect(await status()).toContain('Retry started');
      await waitForDelivery('succeeded');
      const rounds = await tab.getByTestId('attempt').allInnerTexts();
      expect(rounds.some((row) => /^2\s+1\s/.test(row))).toBe(true);
      await snap('18-retry-succeeded');

      // Rotate the signing secret (with confirmation): the revealed secret changes.
      await tab.goto(`${endpointPath}/secret`);
      const before = await tab.getByTestId('signing-secret').innerText();
      await tab.getByRole('link', { name: 'Rotate secret' }).click();
      await snap('19-rotate-confirm');
      await tab.getByRole('button', { name: 'Rotate secret' }).click();
      expect(await status()).toContain('Signing secret rotated');
      const after = await tab.getByTestId('signing-secret').innerText();
      expect(after).toMatch(/^whsec_/);
      expect(after).not.toBe(before);

      // Delete (with confirmation).
      await tab.goto(endpointPath);
      await tab.getByRole('link', { name: 'Delete endpoint' }).click();
      expect(await h1()).toBe('Delete this endpoint?');
      await snap('20-delete-confirm');
      await tab.getByRole('button', { name: 'Delete endpoint' }).click();
      expect(await status()).toContain('Endpoint deleted');
      expect(await tab.getByText('No endpoints yet.').count()).toBe(1);
      expect((await tab.goto(endpointPath))!.status()).toBe(404);
      expect(problems).toEqual([]);
    } finally {
      await ctx.close();
      await flaky.close();
    }
  }, 5 * 60 * 1000);

  it('retries a waiting delivery now, then every waiting delivery of the endpoint, and cancels one; a stale button is refused with a message', async () => {
    const failing = await startReceiver(() => ({ status: 503, body: 'down' }));
    const ctx = await browser.newContext({ viewport: DESKTOP, baseURL: platform.apiUrl });
    const stalePages: Page[] = [];
    try {
      const { tab, endpointPath } = await signedUpWithEndpoint(ctx, `${failing.url}/hook`);
      const snap = (name: string) => tab.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
      const status = () => tab.getByRole('status').first().innerText();
      await tab.getByRole('link', { name: 'Events', exact: true }).click();
      await tab.getByLabel('Event type').fill('order.created');
      await tab.getByLabel('Data (a JSON object)').fill('{"order": 7}');
      await tab.getByRole('button', { name: 'Send test event' }).click();
      const eventPath = new URL(tab.url()).pathname;
      const [eventId, endpointId] = [Number(eventPath.split('/').pop()), endpointPath.split('/').pop()!];
      // The delivery's run waits on its timer before this attempt (the real schedule: 30 s before attempt 4, 5 min before 5).
      const waitingBefore = (attempt: number) => eventually(() => waitsBefore(platform.temporal, deliveryId(eventId, endpointId), attempt), 60_000);
      const reloadUntilAttempts = (count: number) =>
        eventually(async () => (await tab.goto(eventPath), (await tab.getByTestId('attempt').count()) === count), 60_000, 500);

      // Retry now, beside the delivery that waits for its next attempt.
      await waitingBefore(4);
      await tab.goto(eventPath);
      expect(await tab.getByRole('button', { name: 'Cancel delivery' }).count()).toBe(1);
      await snap('21-delivery-waiting');
      await tab.getByRole('button', { name: 'Retry now' }).click();
      expect(await status()).toContain('The next attempt is being made now');
      await reloadUntilAttempts(4);

      // Retry all waiting now, on the endpoint's page.
      await waitingBefore(5);
      await tab.goto(endpointPath);
      await tab.getByRole('button', { name: 'Retry all waiting now' }).click();
      expect(await status()).toContain('makes it now');
      await snap('22-retry-all-waiting');
      await reloadUntilAttempts(5);

      // Two more tabs keep the page as it is now, with its buttons; then the delivery is cancelled.
      await waitingBefore(6);
      for (let i = 0; i < 2; i++) {
        const stale = await openTab(ctx);
        await stale.goto(eventPath);
        stalePages.push(stale);
      }
      await tab.goto(eventPath);
      await tab.getByRole('button', { name: 'Cancel delivery' }).click();
      expect(await status()).toContain('Cancelling');
      expect(await deliveryClosed(platform.temporal, eventId, endpointId)).toBe('CANCELLED');
      await eventually(async () => (await tab.goto(eventPath), (await tab.getByTestId('delivery-status').innerText()) === 'cancelled'), 30_000, 500);
      expect(await tab.getByRole('button', { name: 'Retry now' }).count()).toBe(0);
      expect(await tab.getByRole('button', { name: 'Cancel delivery' }).count()).toBe(0);
      expect(await tab.getByRole('button', { name: 'Retry delivery' }).count()).toBe(1);
      await snap('23-delivery-cancelled');

      // The buttons of the stale pages: the API's refusal (409) as a message on the event's page, nothing changed.
      const [staleRetryNow, staleCancel] = stalePages;
      await staleRetryNow.getByRole('button', { name: 'Retry now' }).click();
      expect(await staleRetryNow.getByRole('alert').innerText()).toContain('not waiting for its next attempt');
      expect(await staleRetryNow.getByTestId('delivery-status').innerText()).toBe('cancelled');
      await staleCancel.getByRole('button', { name: 'Cancel delivery' }).click();
      expect(await staleCancel.getByRole('alert').innerText()).toContain('nothing to cancel');
      await staleCancel.screenshot({ path: path.join(SCREENSHOTS, '24-cancel-refused.png'), fullPage: true });
      expect(failing.received).toHaveLength(5);
      expect(problems).toEqual([]);
    } finally {
      await ctx.close();
      await failing.close();
    }
  }, 5 * 60 * 1000);

  /** The rendered box of what `locator` finds; fails when it is not rendered. */
  const boxOf = async (locator: Locator) => {
    const box = await locator.boundingBox();
    if (!box) throw new Error(`${locator} is not rendered`);
    return box;
  };

  it("draws the recovery form's Since (UTC) field as tall and as wide as the page's other inputs, at desktop and phone width", async () => {
    const ctx = await browser.newContext({ viewport: DESKTOP, baseURL: platform.apiUrl });
    try {
      const { tab } = await signedUpWithEndpoint(ctx, 'https://127.0.0.1:9/hook');
      await tab.screenshot({ path: path.join(SCREENSHOTS, '25-endpoint-page.png'), fullPage: true });
      // Both widths first, each with a screenshot, then the comparison: the form field against the edit form's URL input.
      const sizes = [];
      for (const [viewport, name] of [[DESKTOP, '25-recover-since'], [PHONE, '25-recover-since-375px']] as const) {
        await tab.setViewportSize(viewport);
        await tab.locator('#recover-heading').scrollIntoViewIfNeeded();
        await tab.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
        sizes.push(await Promise.all([boxOf(tab.getByLabel('Since (UTC)')), boxOf(tab.getByLabel('Endpoint URL'))]));
      }
      for (const [since, url] of sizes) {
        expect(since.height).toBeGreaterThanOrEqual(url.height - 0.5);
        expect(since.width).toBeGreaterThanOrEqual(url.width - 0.5);
      }
      expect(problems).toEqual([]);
    } finally {
      await ctx.close();
    }
  }, 2 * 60 * 1000);

  it("shows every attempt's status code and error inside the page at phone width", async () => {
    const failing = await startReceiver(() => ({ status: 503, body: 'down for maintenance, back soon. '.repeat(12) }));
    const ctx = await browser.newContext({ viewport: PHONE, baseURL: platform.apiUrl });
    try {
      const { tab } = await signedUpWithEndpoint(ctx, `${failing.url}/hook`);
      await tab.getByRole('link', { name: 'Events', exact: true }).click();
      await tab.getByLabel('Event type').fill('order.created');
      await tab.getByRole('button', { name: 'Send test event' }).click();
      const eventPath = new URL(tab.url()).pathname;
      await eventually(async () => (await tab.goto(eventPath), (await tab.getByTestId('attempt').count()) >= 2), 60_000, 500);
      const attempt = tab.getByTestId('attempt').first();
      await attempt.scrollIntoViewIfNeeded();
      await tab.screenshot({ path: path.join(SCREENSHOTS, '26-attempts-375px.png'), fullPage: true });
      await attempt.screenshot({ path: path.join(SCREENSHOTS, '26-attempt-row-375px.png') });
      // The table's cells in order: round, attempt, started, duration, status code, error, response body.
      const [statusCode, error] = [attempt.locator('td').nth(4), attempt.locator('td').nth(5)];
      expect(await statusCode.innerText()).toContain('503');
      expect(await error.innerText()).toContain('Destination answered HTTP 503.');
      for (const cell of [statusCode, error]) {
        const box = await boxOf(cell);
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      }
      // Nothing overflows the page sideways either.
      expect(await tab.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await ctx.close();
      await failing.close();
    }
  }, 3 * 60 * 1000);

  it("sets an endpoint's ordering and rate limits, as the API's PATCH does", async () => {
    const ctx = await browser.newContext({ viewport: DESKTOP, baseURL: platform.apiUrl });
    try {
      const { tab, endpointPath, email } = await signedUpWithEndpoint(ctx, 'https://127.0.0.1:9/hook');
      const status = () => tab.getByRole('status').first().innerText();
      const account = await platform.repositories.accounts.findByEmail(email);
      const { key } = await platform.services.accounts.createKey(account!._id, 'weh', 'reads the endpoint');
      const fromApi = async () => (await apiClient(platform, key).get(`/api/v1/webhooks/endpoints/${endpointPath.split('/').pop()}`)).body;

      await tab.locator('#delivery-settings-heading').scrollIntoViewIfNeeded();
      await tab.screenshot({ path: path.join(SCREENSHOTS, '27-delivery-settings.png') });
      expect(await tab.getByLabel('Ordering').inputValue()).toBe('unordered');
      await tab.getByLabel('Ordering').selectOption('fifo');
      await tab.getByLabel('Deliveries started per second').fill('5');
      await tab.getByLabel('Requests in flight at once').fill('2');
      await tab.getByRole('button', { name: 'Save delivery settings' }).click();
      expect(await status()).toBe('Delivery settings saved.');
      expect(await tab.getByTestId('endpoint-ordering').innerText()).toMatch(/^FIFO/);
      expect(await tab.getByTestId('endpoint-limits').innerText()).toBe('At most 5 deliveries started per second and 2 requests in flight at once');
      expect(await fromApi()).toMatchObject({ ordering: 'fifo', rate_limit_per_s: 5, max_in_flight: 2 });
      await tab.locator('#delivery-settings-heading').scrollIntoViewIfNeeded();
      await tab.screenshot({ path: path.join(SCREENSHOTS, '28-delivery-settings-saved.png') });

      // Out of range: the browser does not send it (the server refuses it in the API's words too: dashboard-delivery-settings.test.ts).
      await tab.getByLabel('Deliveries started per second').fill('5000');
      await tab.getByRole('button', { name: 'Save delivery settings' }).click();
      expect(await tab.locator('#settings-rate_limit_per_s:invalid').count()).toBe(1);
      expect(await fromApi()).toMatchObject({ ordering: 'fifo', rate_limit_per_s: 5, max_in_flight: 2 });
      await tab.setViewportSize(PHONE);
      await tab.locator('#delivery-settings-heading').scrollIntoViewIfNeeded();
      await tab.screenshot({ path: path.join(SCREENSHOTS, '29-delivery-settings-375px.png') });
      await tab.setViewportSize(DESKTOP);

      // Empty fields mean no limit; unordered again.
      await tab.getByLabel('Ordering').selectOption('unordered');
      await tab.getByLabel('Deliveries started per second').fill('');
      await tab.getByLabel('Requests in flight at once').fill('');
      await tab.getByRole('button', { name: 'Save delivery settings' }).click();
      expect(await status()).toBe('Delivery settings saved.');
      expect(await tab.getByTestId('endpoint-limits').innerText()).toBe('None');
      expect(await fromApi()).toMatchObject({ ordering: 'unordered', rate_limit_per_s: null, max_in_flight: null });
      expect(problems).toEqual([]);
    } finally {
      await ctx.close();
    }
  }, 2 * 60 * 1000);
});

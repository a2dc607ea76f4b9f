import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/ensure-chromium';
import { PROJECT_ROOT } from '../../src/infra/tools';
import type { Platform } from '../../src/main/platform';
import { GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { startTestPlatform } from '../support/platform';

const SCREENSHOTS = path.join(PROJECT_ROOT, 'test-artifacts', 'screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/**
 * In Debian's Chromium: a broker endpoint registered through the dashboard's endpoint form, listed and shown with its
 * type and config, its credentials write-only (named as set, their values nowhere in any page). The broker need not be
 * reachable: registration checks the destination's rules and host, not the broker.
 */
describe('dashboard: broker destinations in a real browser', () => {
  let platform: Platform;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const username = `mq-user-${randomBytes(6).toString('hex')}`;
  const password = `mq-pass-${randomBytes(12).toString('hex')}`;

  beforeAll(async () => {
    const executablePath = await ensureChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    platform = await startTestPlatform({ roles: { api: true, worker: false } });
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    page = await (await browser.newContext({ viewport: DESKTOP, baseURL: platform.apiUrl })).newPage();
    // A script error or CSP violation fails the test (the refused form's 422 is expected).
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !msg.text().includes('status of 422')) problems.push(`console: ${msg.text()}`);
    });
  }, 15 * 60 * 1000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  /** Neither credential anywhere in the page's HTML (values of inputs included). */
  const expectNoCredential = async () => {
    const content = await page.content();
    expect(content).not.toContain(password);
    expect(content).not.toContain(username);
  };

  async function fillRabbitMq(uri: string) {
    await page.getByLabel('Destination type').selectOption('rabbitmq');
    await page.locator('#new-rabbitmq-uri').fill(uri);
    await page.locator('#new-rabbitmq-exchange').fill('webhooks');
    await page.locator('#new-rabbitmq-routing_key').fill('orders');
    await page.locator('#new-rabbitmq-username').fill(username);
    await page.locator('#new-rabbitmq-password').fill(password);
  }

  it('registers a RabbitMQ endpoint through the form; list and endpoint page show its type and config, never its credentials', async () => {
    await page.goto('/dashboard/sign-up');
    await page.getByLabel('Email').fill(newEmail());
    await page.getByLabel('Password').fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('link', { name: 'Webhook endpoints', exact: true }).click();

    // HTTPS is the default; choosing RabbitMQ shows its fields only, credentials as password inputs.
    expect(await page.getByLabel('Destination type').inputValue()).toBe('https');
    expect(await page.locator('#new-rabbitmq-uri').isVisible()).toBe(false);
    await page.getByLabel('Destination type').selectOption('rabbitmq');
    expect(await page.getByLabel('Endpoint URL').isVisible()).toBe(false);
    expect(await page.locator('#new-rabbitmq-password').getAttribute('type')).toBe('password');
    expect(await page.locator('#new-rabbitmq-username').getAttribute('type')).toBe('password');

    // A refused form is shown again with the API's reason, its config as typed and no credential filled back in.
    await fillRabbitMq('https://mq.example.com/prod');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.getByRole('alert').innerText()).toContain('destination.config.uri');
    expect(await page.getByLabel('Destination type').inputValue()).toBe('rabbitmq');
    expect(await page.locator('#new-rabbitmq-uri').inputValue()).toBe('https://mq.example.com/prod');
    expect(await page.locator('#new-rabbitmq-password').inputValue()).toBe('');
    await expectNoCredential();

    // The test platform allows private networks, so 127.0.0.1 needs no DNS; nothing listens there.
    await fillRabbitMq('amqps://127.0.0.1:5671/prod');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(new URL(page.url()).pathname).toMatch(/^\/dashboard\/endpoints\/ep_/);
    expect(await page.getByTestId('endpoint-type').innerText()).toBe('RabbitMQ');
    expect(await page.getByTestId('endpoint-url').innerText()).toBe('amqps://127.0.0.1:5671/prod exchange "webhooks" routing key "orders"');
    expect(await page.getByTestId('endpoint-credentials').innerText()).toBe('password, username set (values are never shown)');
    // The edit form is of the endpoint's type, its config filled in, its credentials empty.
    expect(await page.locator('#edit-destination-type').inputValue()).toBe('rabbitmq');
    expect(await page.locator('#edit-rabbitmq-exchange').inputValue()).toBe('webhooks');
    expect(await page.locator('#edit-rabbitmq-password').inputValue()).toBe('');
    await expectNoCredential();
    await shot('destination-01-rabbitmq-endpoint');

    // Saved without credentials, the edit keeps the stored ones.
    await page.locator('#edit-rabbitmq-routing_key').fill('invoices');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await page.getByTestId('endpoint-url').innerText()).toBe('amqps://127.0.0.1:5671/prod exchange "webhooks" routing key "invoices"');
    expect(await page.getByTestId('endpoint-credentials').innerText()).toBe('password, username set (values are never shown)');
    await expectNoCredential();

    // Listed with its type.
    await page.getByRole('link', { name: '← All endpoints' }).click();
    const row = page.getByRole('row').filter({ hasText: '127.0.0.1:5671' });
    expect(await row.getByTestId('endpoint-type').innerText()).toBe('RabbitMQ');
    await expectNoCredential();
    await page.getByLabel('Destination type').selectOption('rabbitmq');
    await shot('destination-02-list-form');

    // At phone width, with the RabbitMQ fields showing, nothing overflows the page sideways.
    await page.setViewportSize(PHONE);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await shot('destination-03-list-form-375px');
    await page.goto(new URL(await row.getByRole('link').getAttribute('href') ?? '', platform.apiUrl).pathname);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await shot('destination-04-rabbitmq-endpoint-375px');
    await page.setViewportSize(DESKTOP);

    expect(problems).toEqual([]);
  }, 120_000);
});

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/ensure-chromium';
import { systemClock } from '../../src/domain/clock';
import { PROJECT_ROOT } from '../../src/infra/tools';
import type { Platform } from '../../src/main/platform';
import { DashboardInvites } from '../../src/persistence/dashboard-invites';
import { DashboardSessions } from '../../src/persistence/dashboard-sessions';
import { DashboardInviteService } from '../../src/services/dashboard-invite-service';
import { GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { startTestPlatform } from '../support/platform';

const SCREENSHOTS = path.join(PROJECT_ROOT, 'test-artifacts', 'screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/**
 * In Debian's Chromium: the API reference at /docs (Redoc from our own
 * origin, within its Content-Security-Policy; a useful page without JavaScript) at desktop and
 * phone width, and an invite link setting a password. Screenshots in test-artifacts/screenshots.
 */
describe('newcomer pages in a real browser', () => {
  let platform: Platform;
  let browser: Browser;

  beforeAll(async () => {
    const executablePath = await ensureChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    platform = await startTestPlatform({ roles: { api: true, worker: false } });
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  }, 15 * 60 * 1000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  /** A page whose script errors, CSP violations, failed requests and requests to other origins are collected. */
  async function openPage(options: { viewport: { width: number; height: number }; javaScriptEnabled?: boolean }) {
    const context = await browser.newContext({ viewport: options.viewport, baseURL: platform.apiUrl, javaScriptEnabled: options.javaScriptEnabled ?? true });
    const page = await context.newPage();
    const problems: string[] = [];
    const origin = new URL(platform.apiUrl!).origin;
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    page.on('request', (req) => {
      if (!req.url().startsWith(origin) && !req.url().startsWith('data:') && !req.url().startsWith('blob:')) problems.push(`other origin: ${req.url()}`);
    });
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`${res.status()}: ${res.url()}`);
    });
    return { page, problems, close: () => context.close() };
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
  /** True when nothing on the page is wider than the viewport (no sideways scrolling). */
  const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1');

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])('/docs renders the Redoc reference from our own origin at %s width', async (name, viewport) => {
    const { page, problems, close } = await openPage({ viewport });
    try {
      await page.goto('/docs');
      await page.waitForSelector('html.redoc-ready', { timeout: 30_000 });
      // Redoc's own markup: the operation list and rendered descriptions (backticks become code).
      await page.locator('#redoc h2', { hasText: 'Ingest an event' }).first().waitFor();
      expect(await page.locator('#reference').isHidden()).toBe(true);
      expect(await page.locator('#redoc code').count()).toBeGreaterThan(10);
      expect(await page.locator('#redoc').innerText()).not.toContain('`');
      expect(await fitsWidth(page)).toBe(true);
      await shot(page, `docs-redoc-${name}`);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('/docs without JavaScript is a server-rendered list of every operation', async () => {
    const { page, problems, close } = await openPage({ viewport: PHONE, javaScriptEnabled: false });
    try {
      await page.goto('/docs');
      const text = await page.locator('#reference').innerText();
      expect(text).not.toMatch(/Loading/);
      for (const op of ['POST /api/v1/webhooks/events', 'GET /api/v1/webhooks/endpoints', 'POST /api/cost-estimator', 'GET /readyz']) expect(text).toContain(op);
      expect(await page.locator('#reference code').count()).toBeGreaterThan(20);
      expect(await fitsWidth(page)).toBe(true);
      await shot(page, 'docs-no-javascript-phone');
      await page.getByRole('link', { name: /POST \/api\/v1\/webhooks\/events/ }).first().click();
      expect(page.url()).toContain('#op-post-api-v1-webhooks-events');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('an invite link sets the password at phone width and signs the person in', async () => {
    const email = newEmail();
    const account = await platform.services.accounts.createAccount(email, 'team');
    const invite = await new DashboardInviteService({ accounts: platform.repositories.accounts, invites: new DashboardInvites(platform.db), sessions: new DashboardSessions(platform.db), clock: systemClock }).create(account.id, platform.apiUrl!);
    const { page, problems, close } = await openPage({ viewport: PHONE });
    try {
      await page.goto(invite.link);
      expect(await page.locator('h1').innerText()).toBe('Set your password');
      expect(await page.locator('main').innerText()).toContain(email);
      await page.getByLabel('New password').fill(GOOD_PASSWORD);
      expect(await fitsWidth(page)).toBe(true);
      await shot(page, 'invite-set-password-phone');
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      expect(await page.locator('h1').innerText()).toBe('Overview');
      expect(await page.getByRole('status').innerText()).toContain('Your password is set');

      await page.goto(invite.link);
      expect(await page.locator('h1').innerText()).toBe('This link has been used');
      await shot(page, 'invite-used-phone');
      // The used link's 410 is the page under test, not a problem.
      expect(problems.filter((p) => !p.startsWith('410:') && !p.includes('410'))).toEqual([]);
    } finally {
      await close();
    }
  });
});

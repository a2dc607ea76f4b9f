import { systemClock } from '../../src/domain/clock';
import type { Platform } from '../../src/main/platform';
import { DashboardInvites } from '../../src/persistence/dashboard-invites';
import { DashboardSessions } from '../../src/persistence/dashboard-sessions';
import { DashboardInviteService, INVITE_LIFETIME_MS } from '../../src/services/dashboard-invite-service';
import { csrfTokenIn, DashboardClient, GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { startTestPlatform } from '../support/platform';

/**
 * One-time, time-limited links that set the dashboard password of an account
 * made with the ops CLI. (The CLI printing the link is tested in cli.test.ts.)
 */
describe('dashboard invite links', () => {
  let platform: Platform;
  let base: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false } });
    base = platform.apiUrl!;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const invites = (clock: () => Date = systemClock) => new DashboardInviteService({ accounts: platform.repositories.accounts, invites: new DashboardInvites(platform.db), sessions: new DashboardSessions(platform.db), clock });

  async function invited(clock?: () => Date) {
    const email = newEmail();
    const account = await platform.services.accounts.createAccount(email, 'team');
    const invite = await invites(clock).create(account.id, base);
    return { email, accountId: account.id, path: new URL(invite.link).pathname };
  }

  async function setPassword(path: string, password = GOOD_PASSWORD) {
    const browser = new DashboardClient(base);
    const form = await browser.get(path);
    // A link that no longer works shows no form: post with a valid token from another page.
    const token = csrfTokenIn(form.status === 200 ? form.text : (await browser.get('/dashboard/sign-in')).text);
    return { form, result: await browser.post(path, { _csrf: token, password }) };
  }

  it('an account made by the ops CLI has no password: sign-in and sign-up both refuse it until a link sets one', async () => {
    const { email, path } = await invited();
    expect((await DashboardClient.fromNewIp(base).signIn(email, GOOD_PASSWORD)).status).toBe(401);
    expect((await setPassword(path)).result.status).toBe(303);
    const stored = await platform.repositories.accounts.findByEmail(email);
    expect(stored!.password_hash).toMatch(/^\$argon2id\$/);
    expect((await DashboardClient.fromNewIp(base).signIn(email, GOOD_PASSWORD)).location).toBe('/dashboard');
  });

  it('setting a password through a link ends every existing session of the account', async () => {
    const { email, accountId, path } = await invited();
    expect((await setPassword(path)).result.status).toBe(303);
    const earlier = DashboardClient.fromNewIp(base);
    expect((await earlier.signIn(email, GOOD_PASSWORD)).status).toBe(303);
    expect((await earlier.get('/dashboard')).status).toBe(200);
    // The operator hands the account over again with a new link.
    const second = new URL((await invites().create(accountId, base)).link).pathname;
    const handedOver = await setPassword(second, 'the new owner passphrase');
    expect(handedOver.result.status).toBe(303);
    expect((await earlier.get('/dashboard')).status).toBe(303);
    expect(await platform.db.collection('dashboard_sessions').countDocuments({ account_id: accountId })).toBe(1);
  });

  it('a used link still says so after its 24 hours and a pass of the TTL monitor', async () => {
    const at = Date.now() - INVITE_LIFETIME_MS - 60_000;
    const { path } = await invited(() => new Date(at));
    // Used a second after it was made, 24 hours and a minute ago.
    await invites(() => new Date(at + 1_000)).redeem(path.split('/').pop()!, GOOD_PASSWORD);
    await ttlPass();
    const again = await setPassword(path, 'another long passphrase');
    expect(again.form.status).toBe(410);
    expect(again.form.text).toContain('This link has already been used');
  });

  it('a used link is refused with a page that says so, and sets nothing', async () => {
    const { email, path } = await invited();
    expect((await setPassword(path)).result.status).toBe(303);
    const again = await setPassword(path, 'another long passphrase');
    expect(again.form.status).toBe(410);
    expect(again.form.text).toContain('This link has already been used');
    expect(again.result.status).toBe(410);
    expect((await DashboardClient.fromNewIp(base).signIn(email, 'another long passphrase')).status).toBe(401);
    expect((await DashboardClient.fromNewIp(base).signIn(email, GOOD_PASSWORD)).status).toBe(303);
  });

  it('of concurrent uses of one link exactly one sets the password', async () => {
    const { path } = await invited();
    const browsers = Array.from({ length: 6 }, () => new DashboardClient(base));
    const tokens = await Promise.all(browsers.map(async (b) => csrfTokenIn((await b.get(path)).text)));
    const results = await Promise.all(browsers.map((b, i) => b.post(path, { _csrf: tokens[i], password: `${GOOD_PASSWORD} ${i}` })));
    expect(results.map((r) => r.status).sort()).toEqual([303, 410, 410, 410, 410, 410]);
  });

  /** What the store's TTL monitor does on its next pass (once a minute on MongoDB and here): delete what has expired. */
  const ttlPass = () => platform.db.collection('dashboard_invites').deleteMany({ expires_at: { $lte: new Date() } });

  it('an expired link is refused with a page that says so, after the TTL monitor has passed too', async () => {
    const past = new Date(Date.now() - INVITE_LIFETIME_MS - 1_000);
    const { email, path } = await invited(() => past);
    await ttlPass();
    const { form, result } = await setPassword(path);
    expect(form.status).toBe(410);
    expect(form.text).toContain('This link has expired');
    expect(result.status).toBe(410);
    expect((await platform.repositories.accounts.findByEmail(email))!.password_hash).toBeUndefined();
  });

  it('a link just inside its 24 hours still works', async () => {
    const { path } = await invited(() => new Date(Date.now() - INVITE_LIFETIME_MS + 60_000));
    expect((await setPassword(path)).result.status).toBe(303);
  });

  it('a too-short password is refused and leaves the link usable', async () => {
    const { path } = await invited();
    const short = await setPassword(path, 'short');
    expect(short.result.status).toBe(400);
    expect(short.result.text).toContain('at least 12 characters');
    expect((await setPassword(path)).result.status).toBe(303);
  });

  it('an unknown or malformed token is a 404 page; a post without the form token is refused', async () => {
    for (const token of ['A'.repeat(43), 'nope', '%00']) {
      const res = await new DashboardClient(base).get(`/dashboard/invite/${token}`);
      expect(res.status).toBe(404);
      expect(res.text).toContain('This link is not valid');
    }
    const { path } = await invited();
    expect((await new DashboardClient(base).post(path, { password: GOOD_PASSWORD })).status).toBe(403);
    expect((await setPassword(path)).result.status).toBe(303);
  });
});

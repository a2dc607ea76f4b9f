import { createHash, randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, startTestPlatform } from '../support/platform';
import { csrfTokenIn, DashboardClient, GOOD_PASSWORD, newEmail } from '../support/dashboard-client';

/**
 * The dashboard's security rules, checked over HTTP against a real platform. The platform trusts
 * X-Forwarded-For/-Proto here so that each test can come from its own client IP (the sign-in
 * throttle counts per IP) and can look like an https request (the Secure cookie flag).
 */
describe('dashboard security', () => {
  let platform: Platform;
  let base: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false }, env: { TRUST_PROXY: 'true' } });
    base = platform.apiUrl!;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  async function signedUp(): Promise<{ client: DashboardClient; email: string; accountId: string }> {
    const client = DashboardClient.fromNewIp(base);
    const email = newEmail();
    const res = await client.signUp(email, GOOD_PASSWORD);
    expect(res.status).toBe(303);
    const account = await platform.repositories.accounts.findByEmail(email);
    return { client, email, accountId: account!._id };
  }

  describe('passwords and sessions', () => {
    it('stores the password only as an argon2id hash', async () => {
      const { email } = await signedUp();
      const account = await platform.db.collection('accounts').findOne({ email });
      expect(account!.password_hash).toMatch(/^\$argon2id\$v=19\$/);
      expect(JSON.stringify(account)).not.toContain(GOOD_PASSWORD);
      expect(await argon2.verify(account!.password_hash, GOOD_PASSWORD)).toBe(true);
    });

    it('refuses passwords shorter than 12 characters and creates no account', async () => {
      const client = DashboardClient.fromNewIp(base);
      const email = newEmail();
      const res = await client.signUp(email, 'short pass1');
      expect(res.status).toBe(400);
      expect(res.text).toContain('at least 12 characters');
      expect(await platform.repositories.accounts.findByEmail(email)).toBeNull();
    });

    it('sets an httpOnly, SameSite=Lax session cookie scoped to /dashboard, and stores only the SHA-256 of its id', async () => {
      const { client } = await signedUp();
      const line = client.setCookieLines.get('dash_session')!;
      expect(line).toMatch(/httponly/i);
      expect(line).toMatch(/samesite=lax/i);
      expect(line).toMatch(/path=\/dashboard(;|$)/i);
      expect(line).not.toMatch(/;\s*secure/i);
      const id = client.cookies.get('dash_session')!;
      expect(Buffer.from(id, 'base64url')).toHaveLength(32);
      const sessions = platform.db.collection('dashboard_sessions');
      expect(await sessions.findOne({ _id: id as never })).toBeNull();
      expect(await sessions.findOne({ _id: createHash('sha256').update(id).digest('hex') as never })).not.toBeNull();
    });

    it('marks the session cookie Secure when the request came over https', async () => {
      const client = new DashboardClient(base, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '10.200.0.1' });
      const page = await client.get('/dashboard/sign-up');
      const res = await client.post('/dashboard/sign-up', { _csrf: csrfTokenIn(page.text), email: newEmail(), password: GOOD_PASSWORD });
      expect(res.status).toBe(303);
      expect(client.setCookieLines.get('dash_session')).toMatch(/;\s*secure/i);
    });

    it('ends the session on sign-out: the old cookie no longer opens the dashboard', async () => {
      const { client } = await signedUp();
      const cookie = client.cookieHeader();
      const overview = await client.get('/dashboard');
      expect(overview.status).toBe(200);
      const out = await client.post('/dashboard/sign-out', { _csrf: csrfTokenIn(overview.text) });
      expect(out.status).toBe(303);
      const replay = await client.get('/dashboard', { Cookie: cookie });
      expect(replay.status).toBe(303);
      expect(replay.location).toBe('/dashboard/sign-in');
    });

    it('treats an expired session as no session, even before it is purged', async () => {
      const { client } = await signedUp();
      const id = client.cookies.get('dash_session')!;
      await platform.db
        .collection('dashboard_sessions')
        .updateOne({ _id: createHash('sha256').update(id).digest('hex') as never }, { $set: { expires_at: new Date(Date.now() - 1000) } });
      const res = await client.get('/dashboard');
      expect(res.status).toBe(303);
      expect(res.location).toBe('/dashboard/sign-in');
    });
  });

  describe('CSRF', () => {
    it('refuses a state change without a token or with a wrong one (403) and changes nothing', async () => {
      const { client, accountId } = await signedUp();
      const other = await signedUp();
      const otherToken = csrfTokenIn((await other.client.get('/dashboard/keys')).text);

      const missing = await client.post('/dashboard/keys', { product: 'weh', label: 'no token' });
      const wrong = await client.post('/dashboard/keys', { _csrf: 'x'.repeat(43), product: 'weh', label: 'wrong token' });
      const anotherSessions = await client.post('/dashboard/keys', { _csrf: otherToken, product: 'weh', label: 'stolen token' });
      for (const res of [missing, wrong, anotherSessions]) {
        expect(res.status).toBe(403);
        expect(res.text).toContain('did not come from this site');
      }
      expect(await platform.services.accounts.listKeys(accountId)).toHaveLength(0);
    });

    it('refuses a cross-origin post even with the right token', async () => {
      const { client, accountId } = await signedUp();
      const token = csrfTokenIn((await client.get('/dashboard/keys')).text);
      const res = await client.post('/dashboard/keys', { _csrf: token, product: 'weh', label: 'x' }, { Origin: 'https://evil.example' });
      expect(res.status).toBe(403);
      const crossSite = await client.post('/dashboard/keys', { _csrf: token, product: 'weh', label: 'x' }, { 'Sec-Fetch-Site': 'cross-site' });
      expect(crossSite.status).toBe(403);
      expect(await platform.services.accounts.listKeys(accountId)).toHaveLength(0);

      const sameOrigin = await client.post('/dashboard/keys', { _csrf: token, product: 'weh', label: 'ok' }, { Origin: base });
      expect(sameOrigin.status).toBe(303);
      expect(await platform.services.accounts.listKeys(accountId)).toHaveLength(1);
    });

    it('protects the sign-in and sign-up forms too (token bound to a pre-sign-in cookie)', async () => {
      const email = newEmail();
      await platform.services.accounts.createAccount(email, 'free', await argon2.hash(GOOD_PASSWORD, { type: argon2.argon2id }));
      const client = DashboardClient.fromNewIp(base);
      await client.get('/dashboard/sign-in');
      const noToken = await client.post('/dashboard/sign-in', { email, password: GOOD_PASSWORD });
      expect(noToken.status).toBe(403);
      expect(client.cookies.has('dash_session')).toBe(false);
      const stranger = DashboardClient.fromNewIp(base);
      const token = csrfTokenIn((await stranger.get('/dashboard/sign-up')).text);
      const foreignToken = await client.post('/dashboard/sign-up', { _csrf: token, email: newEmail(), password: GOOD_PASSWORD });
      expect(foreignToken.status).toBe(403);
    });
  });

  describe('behind a TLS proxy: PUBLIC_URL is https, X-Forwarded-Proto not trusted', () => {
    const PUBLIC_ORIGIN = 'https://dashboard.example.test';
    let proxied: Platform;
    /** The plain-http address the proxy forwards to. */
    let hop: string;

    beforeAll(async () => {
      proxied = await startTestPlatform({ roles: { api: true, worker: false }, sameAs: platform, env: { PUBLIC_URL: `${PUBLIC_ORIGIN}/`, TRUST_PROXY: 'false' } });
      hop = proxied.apiUrl!;
    });
    afterAll(async () => {
      await proxied?.stop();
    });

    /** `headers`: what the browser sends with each request (a form post's Origin, or none). */
    async function signedUpBehindProxy(headers: Record<string, string>): Promise<{ client: DashboardClient; accountId: string }> {
      const client = new DashboardClient(hop, headers);
      const email = newEmail();
      const res = await client.signUp(email, GOOD_PASSWORD);
      expect(res.status).toBe(303);
      return { client, accountId: (await platform.repositories.accounts.findByEmail(email))!._id };
    }

    it('marks every cookie Secure, the one carrying a new key too', async () => {
      const { client } = await signedUpBehindProxy({});
      const created = await client.submit('/dashboard/keys', '/dashboard/keys', { product: 'weh', label: 'behind proxy' });
      expect(created.status).toBe(303);
      for (const name of ['dash_csrf', 'dash_session', 'dash_new_key']) expect(client.setCookieLines.get(name)).toMatch(/;\s*secure/i);
    });

    it("takes PUBLIC_URL's origin as its own, not the address the proxy forwards to", async () => {
      const { client, accountId } = await signedUpBehindProxy({ Origin: PUBLIC_ORIGIN });
      const token = csrfTokenIn((await client.get('/dashboard/keys')).text);
      const hopOrigin = await client.post('/dashboard/keys', { _csrf: token, product: 'weh', label: 'x' }, { Origin: hop });
      expect(hopOrigin.status).toBe(403);
      expect(await platform.services.accounts.listKeys(accountId)).toHaveLength(0);
      const publicOrigin = await client.post('/dashboard/keys', { _csrf: token, product: 'weh', label: 'ok' }, { Origin: PUBLIC_ORIGIN });
      expect(publicOrigin.status).toBe(303);
      expect(await platform.services.accounts.listKeys(accountId)).toHaveLength(1);
    });
  });

  describe('sign-in throttling and messages', () => {
    it('answers 429 to the 6th attempt within 15 minutes for an email from one address, even with the right password', async () => {
      const { email } = await signedUp();
      const client = DashboardClient.fromNewIp(base);
      for (let i = 0; i < 5; i++) expect((await client.signIn(email, `wrong password ${i}`)).status).toBe(401);
      const blocked = await client.signIn(email, GOOD_PASSWORD);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(blocked.text).toContain('Too many attempts');
      expect(client.cookies.has('dash_session')).toBe(false);
    });

    it('does not let failures from other addresses lock the owner out (throttled per email and address)', async () => {
      const { email } = await signedUp();
      for (let attacker = 0; attacker < 3; attacker++) {
        const client = DashboardClient.fromNewIp(base);
        for (let i = 0; i < 5; i++) expect((await client.signIn(email, `wrong password ${i}`)).status).toBe(401);
        expect((await client.signIn(email, 'one more guess')).status).toBe(429);
      }
      const owner = DashboardClient.fromNewIp(base);
      expect((await owner.signIn(email, GOOD_PASSWORD)).status).toBe(303);
      expect(owner.cookies.has('dash_session')).toBe(true);
    });

    it('lets no more than 5 of many concurrent wrong passwords from one address be tried', async () => {
      const { email } = await signedUp();
      const sameAddress = { 'X-Forwarded-For': `10.251.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` };
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => new DashboardClient(base, sameAddress).signIn(email, `parallel guess ${i}`)),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(7);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    });

    it('throttles one address that tries many emails', async () => {
      const client = DashboardClient.fromNewIp(base);
      for (let i = 0; i < 20; i++) expect((await client.signIn(newEmail(), 'not the password')).status).toBe(401);
      expect((await client.signIn(newEmail(), 'not the password')).status).toBe(429);
    });

    /** 25 different addresses inside one IPv6 /64 (the prefix is random per call). */
    function addressesInOneSlash64(): string[] {
      const prefix = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
      return Array.from({ length: 25 }, () => `${prefix}:${Array.from({ length: 4 }, () => randomBytes(2).toString('hex')).join(':')}`);
    }

    it('throttles failed sign-ins per IPv6 /64: 25 addresses in one /64 get 20 failures, then 429', async () => {
      const statuses: number[] = [];
      for (const ip of addressesInOneSlash64()) statuses.push((await new DashboardClient(base, { 'X-Forwarded-For': ip }).signIn(newEmail(), 'not the password')).status);
      expect(statuses.slice(0, 20)).toEqual(Array.from({ length: 20 }, () => 401));
      expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
    });

    it('throttles sign-ups per IPv6 /64: 25 addresses in one /64 create 20 accounts, then 429', async () => {
      const statuses: number[] = [];
      for (const ip of addressesInOneSlash64()) statuses.push((await new DashboardClient(base, { 'X-Forwarded-For': ip }).signUp(newEmail(), GOOD_PASSWORD)).status);
      expect(statuses.slice(0, 20)).toEqual(Array.from({ length: 20 }, () => 303));
      expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
    });

    it('does not count successful sign-ins as failures', async () => {
      const { email } = await signedUp();
      const sameAddress = { 'X-Forwarded-For': '10.250.0.7' };
      for (let i = 0; i < 7; i++) expect((await new DashboardClient(base, sameAddress).signIn(email, GOOD_PASSWORD)).status).toBe(303);
    });

    it('says the same thing for an unknown email and for a wrong password', async () => {
      const { email } = await signedUp();
      const unknown = await DashboardClient.fromNewIp(base).signIn(newEmail(), GOOD_PASSWORD);
      const wrong = await DashboardClient.fromNewIp(base).signIn(email, 'wrong password here');
      expect(unknown.status).toBe(401);
      expect(wrong.status).toBe(401);
      const message = (text: string) => /<div class="error-box" role="alert">([\s\S]*?)<\/div>/.exec(text)?.[1];
      expect(message(unknown.text)).toContain('Invalid email or password.');
      expect(message(unknown.text)).toBe(message(wrong.text));
    });

    it('does not confirm on sign-up that an email is already registered', async () => {
      const { email } = await signedUp();
      const res = await DashboardClient.fromNewIp(base).signUp(email, 'another long password');
      expect(res.status).toBe(400);
      expect(res.text).toContain('Could not create an account with this email and password');
      expect(res.text).not.toMatch(/already (exists|registered|taken)|is taken|in use/i);
    });
  });

  describe('sessions and API keys are separate credentials', () => {
    it('does not accept a dashboard session on the key-scoped API (401)', async () => {
      const { client } = await signedUp();
      const id = client.cookies.get('dash_session')!;
      for (const headers of [{ Cookie: `dash_session=${id}` }, { Authorization: `Bearer ${id}` }] as Record<string, string>[]) {
        const res = await fetch(`${base}/api/v1/webhooks/endpoints`, { headers });
        expect(res.status).toBe(401);
      }
    });

    it('does not accept an API key as a dashboard session (redirect to sign-in)', async () => {
      const { key } = await createAccountWithKey(platform);
      for (const headers of [{ Cookie: `dash_session=${key}` }, { Authorization: `Bearer ${key}` }] as Record<string, string>[]) {
        const res = await fetch(`${base}/dashboard/keys`, { headers, redirect: 'manual' });
        expect(res.status).toBe(303);
        expect(res.headers.get('location')).toBe('/dashboard/sign-in');
      }
    });

    it('does not meter dashboard pages against the account quota', async () => {
      const { client, accountId } = await signedUp();
      for (const path of ['/dashboard', '/dashboard/keys', '/dashboard/endpoints', '/dashboard/events']) expect((await client.get(path)).status).toBe(200);
      expect(await platform.services.limiter.usage(`acct:${accountId}`)).toBe(0);
    });
  });

  describe('accounts are isolated', () => {
    it("cannot see or revoke another account's keys", async () => {
      const owner = await createAccountWithKey(platform, { tier: 'free' });
      const { client } = await signedUp();
      const list = await client.get('/dashboard/keys');
      expect(list.text).not.toContain(owner.keyId);
      expect((await client.get(`/dashboard/keys/${owner.keyId}/revoke`)).status).toBe(404);
      const revoke = await client.post(`/dashboard/keys/${owner.keyId}/revoke`, { _csrf: csrfTokenIn(list.text) });
      expect(revoke.status).toBe(404);
      expect((await platform.services.accounts.listKeys(owner.accountId))[0].revoked_at).toBeNull();
      expect((await apiClient(platform, owner.key).get('/api/v1/webhooks/endpoints')).status).toBe(200);
    });

    it("cannot see, reveal, change or delete another account's endpoints and events", async () => {
      const owner = await createAccountWithKey(platform);
      const api = apiClient(platform, owner.key);
      const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/hook', description: 'owner only' })).body;
      const event = (await api.post('/api/v1/webhooks/events', { type: 'private.thing', data: { secret: 1 } })).body;
      const { client } = await signedUp();
      const token = csrfTokenIn((await client.get('/dashboard/endpoints')).text);

      expect((await client.get('/dashboard/endpoints')).text).not.toContain(endpoint.id);
      for (const path of [`/dashboard/endpoints/${endpoint.id}`, `/dashboard/endpoints/${endpoint.id}/secret`, `/dashboard/events/${event.id}`]) {
        const res = await client.get(path);
        expect(res.status).toBe(404);
        expect(res.text).not.toContain(endpoint.secret);
      }
      const deliveryPath = `/dashboard/events/${event.id}/deliveries/${endpoint.id}`;
      for (const path of [
        `/dashboard/endpoints/${endpoint.id}/delete`,
        `/dashboard/endpoints/${endpoint.id}/disable`,
        `/dashboard/endpoints/${endpoint.id}/pause`,
        `/dashboard/endpoints/${endpoint.id}/retry-now`,
        `/dashboard/endpoints/${endpoint.id}/secret/rotate`,
        `${deliveryPath}/retry-now`,
        `${deliveryPath}/cancel`,
      ]) {
        expect((await client.post(path, { _csrf: token })).status).toBe(404);
      }
      const edit = await client.post(`/dashboard/endpoints/${endpoint.id}`, { _csrf: token, url: 'https://127.0.0.1:9/stolen', events: '*', description: '' });
      expect(edit.status).toBe(404);

      const after = (await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body;
      expect(after).toMatchObject({ url: 'https://127.0.0.1:9/hook', disabled: false, paused: false, description: 'owner only' });
      expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}/secret`)).body.secret).toBe(endpoint.secret);
    });
  });

  describe('pages', () => {
    it('sends security headers on every dashboard page', async () => {
      const { client } = await signedUp();
      for (const path of ['/dashboard/sign-in', '/dashboard', '/dashboard/no-such-page']) {
        const res = await client.get(path);
        expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
        expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
        expect(res.headers.get('x-frame-options')).toBe('DENY');
        expect(res.headers.get('referrer-policy')).toBe('same-origin');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
    });

    it('answers a body it cannot read (over 1 MiB, or JSON) with a page, not the API\'s JSON', async () => {
      const { client } = await signedUp();
      const page = await client.get('/dashboard/events');
      const big = await client.post('/dashboard/events', { _csrf: csrfTokenIn(page.text), type: 'order.big', data: `{"s":"${'x'.repeat(2 * 1024 * 1024)}"}` });
      expect([big.status, big.headers.get('content-type')]).toEqual([413, expect.stringMatching(/^text\/html/)]);
      expect(big.text).toContain('Request body exceeds 1 MiB.');
      const json = await fetch(`${base}/dashboard/events`, { method: 'POST', headers: { Cookie: client.cookieHeader(), 'Content-Type': 'application/json' }, body: '{bad' });
      expect([json.status, json.headers.get('content-type')]).toEqual([400, expect.stringMatching(/^text\/html/)]);
    });

    it('pages through events and filters them by type and status', async () => {
      const { client, accountId } = await signedUp();
      for (let i = 0; i < 30; i++) {
        const ticket = platform.services.admission.admit(accountId);
        await platform.services.events.ingest(ticket, { type: i % 10 === 0 ? 'b.two' : 'a.one', data: { i } }).finally(() => ticket.release());
      }
      const rows = (html: string) => (html.match(/href="\/dashboard\/events\/\d+"/g) ?? []).length;

      const first = await client.get('/dashboard/events');
      expect(rows(first.text)).toBe(25);
      const older = /href="(\/dashboard\/events\?cursor=[^"]+)">Older events/.exec(first.text)?.[1];
      expect(older).toBeDefined();
      const second = await client.get(older!.replace(/&amp;/g, '&'));
      expect(rows(second.text)).toBe(5);
      expect(second.text).not.toContain('Older events');

      expect(rows((await client.get('/dashboard/events?type=b.two')).text)).toBe(3);
      expect(rows((await client.get('/dashboard/events?status=delivered&type=a.one')).text)).toBe(25);
      const bad = await client.get('/dashboard/events?status=nonsense');
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('Unknown status filter.');
    });

    it('escapes user-supplied text', async () => {
      const { client } = await signedUp();
      const label = '<script>alert("x")</script>';
      const res = await client.submit('/dashboard/keys', '/dashboard/keys', { product: 'sec', label });
      expect(res.status).toBe(303);
      const page = await client.get('/dashboard/keys');
      expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(page.text).not.toContain(label);
    });

    it('shows a new key once: the redirect target shows it, a reload does not', async () => {
      const { client } = await signedUp();
      const created = await client.submit('/dashboard/keys', '/dashboard/keys', { product: 'weh', label: 'once' });
      expect(created.location).toBe('/dashboard/keys/new');
      const first = await client.get('/dashboard/keys/new');
      expect(first.status).toBe(200);
      const key = /data-testid="new-key">([^<]+)</.exec(first.text)?.[1];
      expect(key).toMatch(/^svc_live_weh_[0-9a-f]{32}$/);
      const again = await client.get('/dashboard/keys/new');
      expect(again.status).toBe(303);
      expect(again.location).toBe('/dashboard/keys?notice=key-hidden');
      expect((await client.get('/dashboard/keys')).text).not.toContain(key!);
      expect((await apiClient(platform, key).get('/api/v1/webhooks/endpoints')).status).toBe(200);
    });

    it("never shows another account's key planted in the one-time cookie", async () => {
      const owner = await createAccountWithKey(platform);
      const { client } = await signedUp();
      const res = await client.get('/dashboard/keys/new', { Cookie: `${client.cookieHeader()}; dash_new_key=${owner.key}` });
      expect(res.status).toBe(303);
      expect(res.location).toBe('/dashboard/keys?notice=key-hidden');
    });
  });
});

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Platform } from '../../src/main/platform';
import { csrfTokenIn, DashboardClient, GOOD_PASSWORD } from '../support/dashboard-client';
import { fakeClock } from '../support/fake-clock';
import { apiClient, invalidationsReadFrom, startTestPlatform } from '../support/platform';

/** CONTRACT §1 "Ops CLI": the real command, as a child process, against the test store. */

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const KEY_PATTERN = /^svc_live_(weh|sec|pii|dep|rat|api)_[0-9a-f]{32}$/;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], db: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: ROOT,
        env: { ...process.env, MONGODB_URI: process.env.MONGODB_URI, MONGODB_DB: db, LOG_LEVEL: 'silent' },
        timeout: 60_000,
      },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('ops CLI', () => {
  const db = `cli_${randomBytes(4).toString('hex')}`;
  const cli = (...args: string[]) => run(TSX, ['src/main/cli.ts', ...args], db);
  const ok = async (...args: string[]) => {
    const r = await cli(...args);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    return JSON.parse(r.stdout);
  };
  const fails = async (...args: string[]) => {
    const r = await cli(...args);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    const error = JSON.parse(r.stderr.trim());
    expect(error).toMatchObject({ error: expect.any(String) });
    return error;
  };
  const email = () => `ops-${randomBytes(5).toString('hex')}@example.test`;

  it('`npm run --silent cli -- account create` prints one JSON object and exits 0, default tier free', async () => {
    const address = email();
    const r = await run('npm', ['run', '--silent', 'cli', '--', 'account', 'create', '--email', address], db);
    expect(r.code).toBe(0);
    const account = JSON.parse(r.stdout);
    expect(account).toEqual({ id: expect.any(String), email: address, tier: 'free' });
  });

  it('account create --tier', async () => {
    expect(await ok('account', 'create', '--email', email(), '--tier', 'business')).toMatchObject({ tier: 'business' });
  });

  it('account set-tier', async () => {
    const account = await ok('account', 'create', '--email', email());
    expect(await ok('account', 'set-tier', '--account', account.id, '--tier', 'team')).toEqual({ id: account.id, email: account.email, tier: 'team' });
  });

  it('key create prints the full key (only here), key list never does, key revoke marks it revoked', async () => {
    const account = await ok('account', 'create', '--email', email());
    const created = await ok('key', 'create', '--account', account.id, '--product', 'weh', '--label', 'production');
    expect(created).toEqual({ id: expect.any(String), key: expect.stringMatching(KEY_PATTERN), product: 'weh', label: 'production', created_at: expect.any(String) });
    expect(new Date(created.created_at).toISOString()).toBe(created.created_at);

    const list = await ok('key', 'list', '--account', account.id);
    const text = JSON.stringify(list);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(created.key.slice('svc_live_weh_'.length));
    expect(list.data).toEqual([expect.objectContaining({ id: created.id, product: 'weh', label: 'production', prefix: 'svc_live_weh_', last_four: created.key.slice(-4), revoked_at: null })]);

    const revoked = await ok('key', 'revoke', '--key', created.id);
    expect(revoked).toMatchObject({ id: created.id, revoked_at: expect.any(String) });
    expect(JSON.stringify(revoked)).not.toContain(created.key);
    const after = await ok('key', 'list', '--account', account.id);
    expect(after.data[0].revoked_at).toBe(revoked.revoked_at);
  });

  it('key create for each of the six products: the key carries the product prefix', async () => {
    const account = await ok('account', 'create', '--email', email());
    const products = ['weh', 'sec', 'pii', 'dep', 'rat', 'api'];
    const keys = await Promise.all(products.map((product) => ok('key', 'create', '--account', account.id, '--product', product, '--label', product)));
    expect(keys.map((k) => k.key.slice(0, 'svc_live_xxx_'.length))).toEqual(products.map((p) => `svc_live_${p}_`));
    expect(keys.map((k) => k.product)).toEqual(products);
  });

  describe('with a running API on the same database', () => {
    let platform: Platform;
    // The API's caches age on a clock the test holds: what the CLI changes can reach them only by the cache-invalidations log.
    const clock = fakeClock(Date.now());
    /** Waits until the API has read the log from after everything the CLI did so far. */
    const logRead = () => invalidationsReadFrom(platform, clock.advance(1));
    beforeAll(async () => {
      platform = await startTestPlatform({ roles: { api: true, worker: false }, env: { MONGODB_DB: db }, clock: clock.now });
    });
    afterAll(async () => {
      await platform?.stop();
    });

    it('a key made by the CLI works at once; a tier set and a revocation by the CLI apply once the API has read the log', async () => {
      const account = await ok('account', 'create', '--email', email());
      const created = await ok('key', 'create', '--account', account.id, '--product', 'weh', '--label', 'ops');
      const api = apiClient(platform, created.key);
      const first = await api.get('/api/v1/webhooks/endpoints');
      expect(first.status).toBe(200);
      expect(first.headers.get('x-quota-limit')).toBe('500');

      await ok('account', 'set-tier', '--account', account.id, '--tier', 'enterprise');
      await logRead();
      expect((await api.get('/api/v1/webhooks/endpoints')).headers.get('x-quota-limit')).toBe('unlimited');

      await ok('key', 'revoke', '--key', created.id);
      await logRead();
      expect((await api.get('/api/v1/webhooks/endpoints')).status).toBe(401);
    });

    it('account invite prints a one-time link that sets the dashboard password; sign-in then works', async () => {
      const address = email();
      const account = await ok('account', 'create', '--email', address);
      const before = Date.now();
      const invite = await ok('account', 'invite', '--account', account.id, '--base-url', platform.apiUrl!);
      const after = Date.now();
      expect(invite).toEqual({ account_id: account.id, email: address, link: expect.stringMatching(/\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/), expires_at: expect.any(String) });
      expect(invite.link.startsWith(`${platform.apiUrl}/dashboard/invite/`)).toBe(true);
      // 24 h from when the CLI made it, which was between `before` and `after`.
      const DAY = 24 * 3_600_000;
      expect(Date.parse(invite.expires_at)).toBeGreaterThanOrEqual(before + DAY);
      expect(Date.parse(invite.expires_at)).toBeLessThanOrEqual(after + DAY);

      const browser = new DashboardClient(platform.apiUrl!);
      const path = new URL(invite.link).pathname;
      const form = await browser.get(path);
      expect(form.status).toBe(200);
      expect(form.text).toContain(address);
      const set = await browser.post(path, { _csrf: csrfTokenIn(form.text), password: GOOD_PASSWORD });
      expect(set.status).toBe(303);
      expect(set.location).toBe('/dashboard?notice=password-set');
      expect((await browser.get('/dashboard')).status).toBe(200);

      const signIn = await new DashboardClient(platform.apiUrl!).signIn(address, GOOD_PASSWORD);
      expect(signIn).toMatchObject({ status: 303, location: '/dashboard' });
      // Only the token's hash is stored.
      const token = path.split('/').pop()!;
      expect(JSON.stringify(await platform.db.collection('dashboard_invites').find().toArray())).not.toContain(token);
    });

    it('account invite for an unknown account fails', async () => {
      expect(await fails('account', 'invite', '--account', 'acct_nope')).toMatchObject({ code: 'not_found' });
    });

    it('account invite with a --base-url that is not an absolute http:// or https:// URL fails and makes no invite', async () => {
      const account = await ok('account', 'create', '--email', email());
      for (const baseUrl of ['javascript:alert(1)', 'notaurl', '/dashboard', 'ftp://example.com']) {
        const error = await fails('account', 'invite', '--account', account.id, '--base-url', baseUrl);
        expect(error).toMatchObject({ code: 'invalid_request', error: expect.stringMatching(/^--base-url must be an absolute http:\/\/ or https:\/\/ URL\. usage: /) });
      }
      // The link is the base with a path appended: a query, a fragment or credentials would end up inside it.
      for (const [baseUrl, fault] of [['https://dash.example.com/?ref=1', 'query'], ['https://dash.example.com/#top', 'query'], ['https://u:p@dash.example.com', 'user name']]) {
        const error = await fails('account', 'invite', '--account', account.id, '--base-url', baseUrl);
        expect(error).toMatchObject({ code: 'invalid_request', error: expect.stringContaining(fault) });
      }
      expect(await platform.db.collection('dashboard_invites').countDocuments({ account_id: account.id })).toBe(0);
    });
  });

  it('help, --help and -h print the commands as one JSON object and exit 0', async () => {
    for (const args of [['help'], ['--help'], ['key', 'create', '-h'], ['listen', '--help']]) {
      const r = await run(TSX, ['src/main/cli.ts', ...args], db);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
      const help = JSON.parse(r.stdout);
      expect(help.commands).toContain('key create --account ID --product P --label L');
      expect(help.commands).toContain('listen --account ID [--events P,...] [--forward-to URL]');
      expect(help.docs).toBe('docs/operating.md#ops-cli');
    }
  });

  describe('bad input: non-zero exit, JSON error on stderr, nothing on stdout', () => {
    it('a missing required option', async () => {
      expect((await fails('account', 'create')).error).toMatch(/--email/);
    });

    it('an invalid email', async () => {
      await fails('account', 'create', '--email', 'not-an-email');
    });

    it('a duplicate email', async () => {
      const address = email();
      await ok('account', 'create', '--email', address);
      expect((await fails('account', 'create', '--email', address)).code).toBe('email_taken');
    });

    it('an unknown command', async () => {
      expect((await fails('account', 'delete', '--account', 'x')).error).toMatch(/Unknown command/);
      expect((await fails('frobnicate')).error).toMatch(/Unknown command/);
    });

    it('no command: the usage', async () => {
      expect((await fails()).error).toMatch(/^No command given\. usage: cli account create/);
    });

    it('an unknown option', async () => {
      await fails('account', 'create', '--email', email(), '--colour', 'blue');
    });

    it('an unknown tier', async () => {
      expect((await fails('account', 'create', '--email', email(), '--tier', 'platinum')).error).toMatch(/free, developer, starter, team, business, enterprise/);
      const account = await ok('account', 'create', '--email', email());
      await fails('account', 'set-tier', '--account', account.id, '--tier', 'Free');
    });

    it('an unknown product', async () => {
      const account = await ok('account', 'create', '--email', email());
      expect((await fails('key', 'create', '--account', account.id, '--product', 'webhooks', '--label', 'x')).error).toMatch(/weh, sec, pii, dep, rat, api/);
    });

    it('an unknown account or key', async () => {
      expect((await fails('key', 'create', '--account', 'acct_nope', '--product', 'weh', '--label', 'x')).code).toBe('not_found');
      expect((await fails('account', 'set-tier', '--account', 'acct_nope', '--tier', 'free')).code).toBe('not_found');
      expect((await fails('key', 'list', '--account', 'acct_nope')).code).toBe('not_found');
      expect((await fails('key', 'revoke', '--key', 'key_nope')).code).toBe('not_found');
    });

    it('an empty label', async () => {
      const account = await ok('account', 'create', '--email', email());
      await fails('key', 'create', '--account', account.id, '--product', 'weh', '--label', '   ');
    });
  });
});

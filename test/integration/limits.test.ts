import { accountPolicy } from '../../src/domain/limits/policies';
import type { Platform } from '../../src/main/platform';
import { BlockLimiter, IDLE_RETURN_MS } from '../../src/persistence/block-limiter';
import { fakeClock } from '../support/fake-clock';
import { apiClient, ApiResponse, createAccountWithKey, startTestPlatform } from '../support/platform';

/** platform-api.md "Limits" and CONTRACT §2, against the real API and store. */

const LIST = '/api/v1/webhooks/endpoints';
const unix = (ms: number) => Math.ceil(ms / 1000);

function limitHeaders(res: ApiResponse) {
  return {
    limit: res.headers.get('x-ratelimit-limit'),
    remaining: res.headers.get('x-ratelimit-remaining'),
    reset: res.headers.get('x-ratelimit-reset'),
    used: res.headers.get('x-quota-used'),
    quota: res.headers.get('x-quota-limit'),
  };
}

function expectAllLimitHeaders(res: ApiResponse) {
  const h = limitHeaders(res);
  expect(h.limit).toMatch(/^\d+$/);
  expect(h.remaining).toMatch(/^\d+$/);
  expect(h.reset).toMatch(/^\d{10}$/);
  expect(h.used).toMatch(/^\d+$/);
  expect(h.quota).toMatch(/^(\d+|unlimited)$/);
}

describe('limits with the real clock', () => {
  let platform: Platform;

  beforeAll(async () => {
    // Proxy trusted so that the anonymous tests can call from client addresses of their choice.
    platform = await startTestPlatform({ env: { TRUST_PROXY: 'true' }, roles: { api: true, worker: false } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it("a new free account's first call: limit 10, remaining 9, used 1, quota 500, reset = window end in Unix seconds", async () => {
    const { key } = await createAccountWithKey(platform, { tier: 'free' });
    const before = Date.now();
    const res = await apiClient(platform, key).get(LIST);
    const after = Date.now();
    expect(res.status).toBe(200);
    const h = limitHeaders(res);
    expect(h).toMatchObject({ limit: '10', remaining: '9', used: '1', quota: '500' });
    // The window starts at this call and lasts 60 s.
    expect(Number(h.reset)).toBeGreaterThanOrEqual(unix(before + 60_000));
    expect(Number(h.reset)).toBeLessThanOrEqual(unix(after + 60_000));
  });

  it('enterprise: X-Quota-Limit is "unlimited" and the burst limit 3000', async () => {
    const { key } = await createAccountWithKey(platform, { tier: 'enterprise' });
    const res = await apiClient(platform, key).get(LIST);
    expect(limitHeaders(res)).toMatchObject({ limit: '3000', remaining: '2999', used: '1', quota: 'unlimited' });
  });

  it.each([
    ['developer', '60', '10000'],
    ['starter', '120', '50000'],
    ['team', '300', '200000'],
    ['business', '600', '1000000'],
  ] as const)('%s tier: burst %s a minute, quota %s', async (tier, burst, quota) => {
    const { key } = await createAccountWithKey(platform, { tier });
    const res = await apiClient(platform, key).get(LIST);
    expect(limitHeaders(res)).toMatchObject({ limit: burst, quota });
  });

  describe('the headers are on every response to a call made with an active key', () => {
    it('2xx', async () => {
      const { key } = await createAccountWithKey(platform, { tier: 'free' });
      const res = await apiClient(platform, key).post(LIST, { url: 'https://example.com/hook' });
      expect(res.status).toBe(201);
      expectAllLimitHeaders(res);
    });

    it('403 (a key of another product)', async () => {
      const { key } = await createAccountWithKey(platform, { tier: 'free', product: 'pii' });
      const res = await apiClient(platform, key).get(LIST);
      expect(res.status).toBe(403);
      expectAllLimitHeaders(res);
    });

    it('404 under /api/v1 (unknown path, unknown resource)', async () => {
      const { key } = await createAccountWithKey(platform, { tier: 'free' });
      const api = apiClient(platform, key);
      const unknownPath = await api.get('/api/v1/webhooks/nothing-here');
      const unknownResource = await api.get(`${LIST}/ep_doesnotexist000000000000`);
      expect([unknownPath.status, unknownResource.status]).toEqual([404, 404]);
      expectAllLimitHeaders(unknownPath);
      expectAllLimitHeaders(unknownResource);
      expect(limitHeaders(unknownResource).used).toBe('2');
    });

    it('405 under /api/v1', async () => {
      const { key } = await createAccountWithKey(platform, { tier: 'free' });
      const res = await apiClient(platform, key).call('PUT', LIST, {});
      expect(res.status).toBe(405);
      expectAllLimitHeaders(res);
    });

    it('400 (validation), 400 (malformed JSON) and 413 (body over 1 MiB)', async () => {
      const { key } = await createAccountWithKey(platform, { tier: 'free' });
      const api = apiClient(platform, key);
      const invalid = await api.post(LIST, { url: 42 });
      const malformed = await api.post(LIST, '{"url": ');
      const tooLarge = await api.post(LIST, JSON.stringify({ url: 'https://example.com', description: 'x'.repeat(1024 * 1024) }));
      expect([invalid.status, malformed.status, tooLarge.status]).toEqual([400, 400, 413]);
      for (const res of [invalid, malformed, tooLarge]) expectAllLimitHeaders(res);
      expect(limitHeaders(tooLarge).used).toBe('3');
    });

    it('429', async () => {
      const { key } = await createAccountWithKey(platform, { tier: 'free' });
      const api = apiClient(platform, key);
      for (let i = 0; i < 10; i++) expect((await api.get(LIST)).status).toBe(200);
      const res = await api.get(LIST);
      expect(res.status).toBe(429);
      expectAllLimitHeaders(res);
      expect(limitHeaders(res)).toMatchObject({ remaining: '0', used: '10' });
    });
  });

  it('50 parallel calls on a free account: exactly 10 succeed, 40 get the burst 429', async () => {
    const { key } = await createAccountWithKey(platform, { tier: 'free' });
    const api = apiClient(platform, key);
    const responses = await Promise.all(Array.from({ length: 50 }, () => api.get(LIST)));
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(10);
    expect(limited).toHaveLength(40);
    // Under this much concurrency the counts each response reports are a snapshot; the admission is exact.
    for (const r of ok) expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThanOrEqual(9);
    for (const r of limited) {
      expect(r.body).toEqual({ error: expect.any(String), code: 'rate_limit_exceeded', retry_after: expect.any(Number), remaining: 0 });
      expect(Number.isInteger(r.body.retry_after)).toBe(true);
      expect(r.body.retry_after).toBeGreaterThanOrEqual(1);
      expect(r.body.retry_after).toBeLessThanOrEqual(60);
      expect(r.headers.get('retry-after')).toBe(String(r.body.retry_after));
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    }
  });

  it('exactness across two API processes sharing the database: 30 parallel calls split between them, exactly 10 succeed', async () => {
    const second = await startTestPlatform({ sameAs: platform, roles: { api: true, worker: false } });
    try {
      const { key } = await createAccountWithKey(platform, { tier: 'free' });
      const here = apiClient(platform, key);
      const there = apiClient(second, key);
      const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? here : there).get(LIST)));
      expect(responses.filter((r) => r.status === 200)).toHaveLength(10);
      expect(responses.filter((r) => r.status === 429)).toHaveLength(20);
      // Both processes agree that the window is full.
      expect((await here.get(LIST)).status).toBe(429);
      expect((await there.get(LIST)).status).toBe(429);
    } finally {
      await second.stop();
    }
  });

  it('anonymous estimator callers: one budget per IPv6 /64 and per IPv4 address (IPv4-mapped IPv6 is IPv4)', async () => {
    const api = apiClient(platform);
    const from = async (ip: string) => (await api.get('/api/cost-estimator?provider=aws', { 'X-Forwarded-For': ip })).headers.get('x-ratelimit-remaining');
    expect(await from('2001:db8:77:1::1')).toBe('29');
    expect(await from('2001:db8:77:1:abcd:ef01:2345:6789')).toBe('28');
    expect(await from('2001:db8:77:2::1')).toBe('29');
    expect(await from('::ffff:203.0.113.9')).toBe('29');
    expect(await from('203.0.113.9')).toBe('28');
    expect(await from('203.0.113.10')).toBe('29');
  });

  it('a call answered 5xx is not counted (a corrupt record makes the list fail)', async () => {
    const { key, accountId } = await createAccountWithKey(platform, { tier: 'free' });
    const api = apiClient(platform, key);
    const first = await api.get(LIST);
    expect(limitHeaders(first)).toMatchObject({ remaining: '9', used: '1' });
    // A record the service cannot read: listing it throws, an honest 500 through the real stack.
    const endpoints = platform.db.collection('endpoints');
    await endpoints.insertOne({ _id: 'ep_corrupt' as never, account_id: accountId, url: 'https://example.com', events: ['*'], description: '', secret_sealed: 'x', disabled: false, created_at: 'not a date', updated_at: 'not a date' });
    const failed = await api.get(LIST);
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ code: 'internal_error', request_id: expect.any(String) });
    await endpoints.deleteOne({ _id: 'ep_corrupt' as never });
    const next = await api.get(LIST);
    expect(next.status).toBe(200);
    expect(limitHeaders(next)).toMatchObject({ remaining: '8', used: '2' });
  });
});

describe('limits with an injected clock', () => {
  let platform: Platform;
  // Far in the future, so nothing real expires.
  const clock = fakeClock('2031-05-10T12:00:00.000Z');

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false }, clock: clock.now });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('window boundary: at +59.9 s still 429 (retry_after 1); at +60 s a new window starts at that call', async () => {
    clock.set('2031-05-10T12:00:00.000Z');
    const t = clock.at();
    const { key } = await createAccountWithKey(platform, { tier: 'free' });
    const api = apiClient(platform, key);
    const first = await api.get(LIST);
    expect(limitHeaders(first)).toMatchObject({ remaining: '9', reset: String(unix(t + 60_000)) });
    for (let i = 0; i < 9; i++) await api.get(LIST);

    clock.set('2031-05-10T12:00:59.900Z');
    const late = await api.get(LIST);
    expect(late.status).toBe(429);
    expect(late.body).toMatchObject({ code: 'rate_limit_exceeded', retry_after: 1, remaining: 0 });
    expect(late.headers.get('retry-after')).toBe('1');
    expect(limitHeaders(late)).toMatchObject({ remaining: '0', reset: String(unix(t + 60_000)) });

    clock.set('2031-05-10T12:01:00.000Z');
    const next = await api.get(LIST);
    expect(next.status).toBe(200);
    expect(limitHeaders(next)).toMatchObject({ remaining: '9', used: '11', reset: String(unix(t + 120_000)) });
  });

  it('the next window starts at the first call after the previous one ended, not on a fixed grid', async () => {
    clock.set('2031-05-10T13:00:00.000Z');
    const { key } = await createAccountWithKey(platform, { tier: 'free' });
    const api = apiClient(platform, key);
    await api.get(LIST);
    clock.set('2031-05-10T13:03:17.000Z');
    const res = await api.get(LIST);
    expect(limitHeaders(res)).toMatchObject({ remaining: '9', reset: String(unix(Date.parse('2031-05-10T13:04:17.000Z'))) });
  });

  it('429s are not counted: after 40 refused calls the next window shows used 11', async () => {
    clock.set('2031-05-10T14:00:00.000Z');
    const { key } = await createAccountWithKey(platform, { tier: 'free' });
    const api = apiClient(platform, key);
    const responses = await Promise.all(Array.from({ length: 50 }, () => api.get(LIST)));
    expect(responses.filter((r) => r.status === 429)).toHaveLength(40);
    // Answered while the admitted calls were still being recorded: a snapshot, never above what was admitted.
    for (const r of responses.filter((x) => x.status === 429)) expect(Number(r.headers.get('x-quota-used'))).toBeLessThanOrEqual(10);
    // A refused call after the race has settled reports the exact count.
    expect(limitHeaders(await api.get(LIST))).toMatchObject({ remaining: '0', used: '10' });
    clock.advance(60_000);
    const next = await api.get(LIST);
    expect(limitHeaders(next)).toMatchObject({ remaining: '9', used: '11' });
  });

  it('monthly quota: 500 calls spread over windows succeed, the 501st gets the quota 429; the next month starts at 0', async () => {
    clock.set('2031-05-20T08:00:00.000Z');
    const { key } = await createAccountWithKey(platform, { tier: 'free' });
    const api = apiClient(platform, key);
    const used: number[] = [];
    for (let w = 0; w < 50; w++) {
      const responses = await Promise.all(Array.from({ length: 10 }, () => api.get(LIST)));
      for (const r of responses) {
        expect(r.status).toBe(200);
        used.push(Number(r.headers.get('x-quota-used')));
      }
      clock.advance(60_000);
    }
    expect(used.sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));

    // The 501st call, in a fresh window: the burst allows it, the quota does not.
    const refused = await api.get(LIST);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: expect.any(String),
      code: 'quota_exceeded',
      quota_limit: 500,
      quota_used: 500,
      reset_at: '2031-06-01T00:00:00.000Z',
    });
    const secondsToJune = Math.ceil((Date.parse('2031-06-01T00:00:00.000Z') - clock.at()) / 1000);
    expect(refused.headers.get('retry-after')).toBe(String(secondsToJune));
    expect(limitHeaders(refused)).toMatchObject({ used: '500', quota: '500', remaining: '10' });
    // Refused again, and still not counted.
    expect((await api.get(LIST)).body.quota_used).toBe(500);

    clock.set('2031-06-01T00:00:00.000Z');
    const june = await api.get(LIST);
    expect(june.status).toBe(200);
    expect(limitHeaders(june)).toMatchObject({ used: '1', quota: '500', remaining: '9' });
  });

  it('December rolls over to 1 January of the next year', async () => {
    clock.set('2031-12-31T23:57:00.000Z');
    const { key, accountId } = await createAccountWithKey(platform, { tier: 'free' });
    // Use up the quota through the limiter itself, as 500 earlier calls this month would have (a wider burst, to do it in one go).
    const policy = { ...accountPolicy(accountId, 'free'), burstLimit: 1000 };
    for (let i = 0; i < 500; i++) await platform.services.limiter.admit(policy);
    clock.set('2031-12-31T23:59:00.000Z');
    const refused = await apiClient(platform, key).get(LIST);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'quota_exceeded', reset_at: '2032-01-01T00:00:00.000Z' });
    expect(refused.headers.get('retry-after')).toBe('60');
    clock.set('2032-01-01T00:00:00.000Z');
    expect(limitHeaders(await apiClient(platform, key).get(LIST))).toMatchObject({ used: '1' });
  });

  it('block claims across two API processes: uneven load never admits more than the limit, and once idle blocks are given back exactly the limit', async () => {
    clock.set('2031-08-01T09:00:00.000Z');
    const second = await startTestPlatform({ sameAs: platform, roles: { api: true, worker: false }, clock: clock.now });
    try {
      // Team: 300 a minute, so busy processes claim blocks of calls rather than one call per insert.
      const { key } = await createAccountWithKey(platform, { tier: 'team' });
      const here = apiClient(platform, key);
      const there = apiClient(second, key);
      const responses = await Promise.all(Array.from({ length: 340 }, (_, i) => (i % 4 === 0 ? there : here).get(LIST)));
      const admitted = responses.filter((r) => r.status === 200).length;
      expect(admitted).toBeLessThanOrEqual(300);
      expect(responses.filter((r) => r.status === 429)).toHaveLength(340 - admitted);
      // Once idle (same window) each process has given back what it held unused, and reads the count again.
      clock.advance(IDLE_RETURN_MS);
      await Promise.all([platform, second].map((p) => (p.services.limiter as BlockLimiter).returnIdle()));
      let more = 0;
      for (const api of [there, here]) {
        for (let res = await api.get(LIST); res.status === 200; res = await api.get(LIST)) more++;
      }
      expect(admitted + more).toBe(300);
      expect((await here.get(LIST)).status).toBe(429);
      expect((await there.get(LIST)).status).toBe(429);
    } finally {
      await second.stop();
    }
  });

  it('a second API process with the same clock shares the window exactly', async () => {
    clock.set('2031-07-01T09:00:00.000Z');
    const second = await startTestPlatform({ sameAs: platform, roles: { api: true, worker: false }, clock: clock.now });
    try {
      const { key } = await createAccountWithKey(platform, { tier: 'free' });
      const here = apiClient(platform, key);
      const there = apiClient(second, key);
      const first = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? here : there).get(LIST)));
      expect(first.filter((r) => r.status === 200)).toHaveLength(10);
      clock.advance(60_000);
      const next = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? here : there).get(LIST)));
      expect(next.filter((r) => r.status === 200)).toHaveLength(10);
    } finally {
      await second.stop();
    }
  });
});

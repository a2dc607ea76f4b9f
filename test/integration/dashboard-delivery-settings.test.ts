import type { Platform } from '../../src/main/platform';
import { html } from '../../src/transport/http/dashboard/html';
import type { Tier } from '../../src/domain/limits/tiers';
import { csrfTokenIn } from '../support/dashboard-client';
import { signedUpWithKey } from '../support/dashboard-user';
import { startTestPlatform } from '../support/platform';

/**
 * An endpoint's ordering and limits set from the dashboard: the API's PATCH by another door, so the same schema refuses
 * the same values in the same words, and the dashboard's form rules (CSRF, same origin, one account) hold.
 */
describe("dashboard: an endpoint's delivery settings", () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false }, env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  /** A signed-up user with an endpoint, and an API key to read it. */
  async function userWithEndpoint(tier?: Tier) {
    const { client, api, accountId } = await signedUpWithKey(platform, tier);
    const endpoint = (await api.post('/api/v1/webhooks/endpoints', { url: 'https://127.0.0.1:9/hook' })).body;
    const page = `/dashboard/endpoints/${endpoint.id}`;
    const settings = (fields: Record<string, string>, headers?: Record<string, string>) =>
      client.get(page).then((res) => client.post(`${page}/delivery-settings`, { _csrf: csrfTokenIn(res.text), ...fields }, headers));
    const current = async () => {
      const { ordering, rate_limit_per_s, max_in_flight } = (await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body;
      return { ordering, rate_limit_per_s, max_in_flight };
    };
    return { client, api, accountId, endpoint, page, settings, current };
  }

  it('sets ordering and both limits, shows them on the page, and clears a limit left empty', async () => {
    const { client, page, settings, current } = await userWithEndpoint();
    const saved = await settings({ ordering: 'fifo', rate_limit_per_s: '7', max_in_flight: '3' });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${page}?notice=delivery-settings-saved`);
    expect(await current()).toEqual({ ordering: 'fifo', rate_limit_per_s: 7, max_in_flight: 3 });
    const shown = (await client.get(saved.location!)).text;
    expect(shown).toContain('Delivery settings saved.');
    expect(shown).toMatch(/data-testid="endpoint-limits">At most 7 deliveries started per second and 3 requests in flight at once</);
    expect(shown).toMatch(/<option value="fifo" selected>/);

    expect((await settings({ ordering: 'fifo', rate_limit_per_s: '', max_in_flight: ' 1 ' })).status).toBe(303);
    expect(await current()).toEqual({ ordering: 'fifo', rate_limit_per_s: null, max_in_flight: 1 });
    expect((await settings({ ordering: 'unordered', rate_limit_per_s: '', max_in_flight: '' })).status).toBe(303);
    expect(await current()).toEqual({ ordering: 'unordered', rate_limit_per_s: null, max_in_flight: null });
  });

  it.each([
    ['a rate limit of 0', { rate_limit_per_s: '0' }, { rate_limit_per_s: 0 }],
    ['a rate limit over the most', { rate_limit_per_s: '1001' }, { rate_limit_per_s: 1001 }],
    ['a rate limit that is not whole', { rate_limit_per_s: '2.5' }, { rate_limit_per_s: 2.5 }],
    ['a negative in-flight limit', { max_in_flight: '-1' }, { max_in_flight: -1 }],
    ['an in-flight limit over the most', { max_in_flight: '101' }, { max_in_flight: 101 }],
    ['a rate limit of many digits', { rate_limit_per_s: '99999999999999' }, { rate_limit_per_s: 99999999999999 }],
    ['an ordering the API does not know', { ordering: 'lifo' }, { ordering: 'lifo' }],
  ])('refuses %s as the PATCH does, in its words and status, on the form as typed, changing nothing', async (_name, typed, patch) => {
    const { api, endpoint, settings, current } = await userWithEndpoint();
    const fields = { ordering: 'fifo', rate_limit_per_s: '5', max_in_flight: '2', ...typed };
    const before = await current();
    const refused = await settings(fields);
    const fromApi = await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { ordering: 'fifo', rate_limit_per_s: 5, max_in_flight: 2, ...patch });
    expect(fromApi.status).toBeGreaterThanOrEqual(400);
    expect(fromApi.status).toBeLessThan(500);
    expect(refused.status).toBe(fromApi.status);
    expect(refused.text).toContain(String(html`${fromApi.body.error}`));
    for (const [name, value] of Object.entries(typed)) {
      expect(refused.text).toMatch(name === 'ordering' ? /<select id="settings-ordering"/ : new RegExp(`name="${name}"[^>]*value="${value}"`));
    }
    expect(await current()).toEqual(before);
  });

  it('reads a limit typed with an exponent as the number it is, as a number input sends it', async () => {
    const { settings, current } = await userWithEndpoint();
    expect((await settings({ ordering: 'unordered', rate_limit_per_s: '1e2', max_in_flight: '2E1' })).status).toBe(303);
    expect(await current()).toEqual({ ordering: 'unordered', rate_limit_per_s: 100, max_in_flight: 20 });
  });

  it('refuses text where a number belongs, and changes nothing', async () => {
    const { settings, current } = await userWithEndpoint();
    const before = await current();
    const refused = await settings({ ordering: 'fifo', rate_limit_per_s: 'ten', max_in_flight: '' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('rate_limit_per_s must be a number.');
    expect(await current()).toEqual(before);
  });

  it('refuses a post without the CSRF token or from another origin (403), and changes nothing', async () => {
    const { client, page, settings, current } = await userWithEndpoint();
    const before = await current();
    expect((await client.post(`${page}/delivery-settings`, { ordering: 'fifo', rate_limit_per_s: '5', max_in_flight: '' })).status).toBe(403);
    expect((await settings({ ordering: 'fifo', rate_limit_per_s: '5', max_in_flight: '' }, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await settings({ ordering: 'fifo', rate_limit_per_s: '5', max_in_flight: '' }, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect(await current()).toEqual(before);
  });

  it('is metered like the PATCH: with the minute\'s calls used up it is refused (429) and changes nothing', async () => {
    // Free: 10 calls a minute, one of them the endpoint's creation.
    const { api, accountId, endpoint, settings } = await userWithEndpoint('free');
    for (let i = 0; i < 9; i++) expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(200);
    const refused = await settings({ ordering: 'fifo', rate_limit_per_s: '5', max_in_flight: '' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.text).toContain('Nothing was changed');
    const after = await platform.services.endpoints.get(accountId, endpoint.id);
    expect(after).toMatchObject({ ordering: 'unordered', rate_limit_per_s: null, max_in_flight: null });
  });

  it("cannot change another account's endpoint (404)", async () => {
    const owner = await userWithEndpoint();
    const other = await userWithEndpoint();
    const token = csrfTokenIn((await other.client.get('/dashboard/endpoints')).text);
    const res = await other.client.post(`${owner.page}/delivery-settings`, { _csrf: token, ordering: 'fifo', rate_limit_per_s: '1', max_in_flight: '1' });
    expect(res.status).toBe(404);
    expect(await owner.current()).toEqual({ ordering: 'unordered', rate_limit_per_s: null, max_in_flight: null });
  });
});

import { verifySync, WebhookVerificationError } from '../../receivers/typescript/src/node';
import { csrfTokenIn, DashboardClient, GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { apiClient, eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';
import { verifySignature } from '../support/spec-signature';

/** Rotation with a grace period, on the real stack (Temporal, the store, HTTPS receivers). */
describe('signing secret rotation with a grace period', () => {
  const fixture = receivingPlatform();
  const rotatePath = (id: string) => `/api/v1/webhooks/endpoints/${id}/secret/rotate`;

  /** What a receiver written with the library, holding `secrets`, makes of a delivery. */
  const verdict = (secrets: string[], rawBody: string, headers: Record<string, unknown>) => {
    try {
      verifySync(rawBody, headers as Record<string, string>, { secrets });
      return 'verified';
    } catch (err) {
      if (err instanceof WebhookVerificationError) return err.code;
      throw err;
    }
  };

  /** Rotates `endpoint`'s secret with `grace` seconds, and returns the new secret and when the grace ends (ms), bracketed by the call. */
  async function rotate(api: ReturnType<typeof apiClient>, endpointId: string, grace: number) {
    const before = Date.now();
    const rotated = await api.post(rotatePath(endpointId), { grace_period_seconds: grace });
    const after = Date.now();
    expect(rotated.status).toBe(200);
    const view = (await api.get(`/api/v1/webhooks/endpoints/${endpointId}`)).body;
    expect(view.secrets_in_grace).toHaveLength(1);
    const endsAt = Date.parse(view.secrets_in_grace[0].expires_at);
    expect(endsAt).toBeGreaterThanOrEqual(before + grace * 1000);
    expect(endsAt).toBeLessThanOrEqual(after + grace * 1000);
    return { newSecret: rotated.body.secret as string, endsAt };
  }

  it('during the grace period a receiver holding only the old secret verifies webhook-signature', async () => {
    const { receiver, api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/hook' });
    // An hour: the delivery is made during it however slow the machine.
    const { newSecret } = await rotate(api, endpoint.id, 3_600);
    await api.post('/api/v1/webhooks/events', { type: 'during.grace', data: {} });
    const during = await eventually(async () => receiver.received[0]);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verdict([endpoint.secret], during.rawBody, during.headers)).toBe('verified');
    expect(verdict([newSecret], during.rawBody, during.headers)).toBe('verified');
    // X-Webhook-Signature is signed with the newest secret only.
    expect(verifySignature(newSecret, during.rawBody, during.headers['x-webhook-signature'])).toBe(true);
    expect(verifySignature(endpoint.secret, during.rawBody, during.headers['x-webhook-signature'])).toBe(false);
  });

  it('after the grace period a receiver holding only the old secret no longer verifies webhook-signature', async () => {
    const { receiver, api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/hook' });
    const { newSecret, endsAt } = await rotate(api, endpoint.id, 1);
    await eventually(async () => Date.now() > endsAt || undefined, 30_000, 50);
    await api.post('/api/v1/webhooks/events', { type: 'after.grace', data: {} });
    const after = await eventually(async () => receiver.received[0]);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verdict([endpoint.secret], after.rawBody, after.headers)).toBe('no_matching_signature');
    expect(verdict([newSecret], after.rawBody, after.headers)).toBe('verified');
    expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body.secrets_in_grace).toEqual([]);
  });

  it("a rotation is announced in the cache-invalidations log: every process's cache of endpoints, which attempts sign from, drops the old secret", async () => {
    const { api, endpoint, accountId } = await fixture.subscribe(() => ({ status: 200 }), { path: '/announced' });
    const announced = () => fixture.platform.db.collection('cache_invalidations').countDocuments({ kind: 'endpoints_changed', account_id: accountId });
    const before = await announced();
    expect((await api.post(rotatePath(endpoint.id), { grace_period_seconds: 0 })).status).toBe(200);
    expect(await announced()).toBe(before + 1);
  });

  it('an empty body rotates with the default grace of 24 hours', async () => {
    const { api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/x' });
    const before = Date.now();
    const res = await api.call('POST', rotatePath(endpoint.id));
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [inGrace] = (await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body.secrets_in_grace;
    expect(Date.parse(inGrace.expires_at)).toBeGreaterThanOrEqual(before + 86_400_000);
    expect(Date.parse(inGrace.expires_at)).toBeLessThanOrEqual(after + 86_400_000);
  });

  it('a grace of 0 stops the old secret at once', async () => {
    const { api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/x' });
    expect((await api.post(rotatePath(endpoint.id), { grace_period_seconds: 0 })).status).toBe(200);
    expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body.secrets_in_grace).toEqual([]);
  });

  it('a grace of 0 also ends every secret replaced earlier that is still in its grace', async () => {
    const { api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/x' });
    expect((await api.post(rotatePath(endpoint.id), { grace_period_seconds: 3600 })).status).toBe(200);
    expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body.secrets_in_grace).toHaveLength(1);
    expect((await api.post(rotatePath(endpoint.id), { grace_period_seconds: 0 })).status).toBe(200);
    expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body.secrets_in_grace).toEqual([]);
  });

  it('keeps no secret a grace of 0 ended in the store: the endpoint holds its current secret only', async () => {
    const { api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/x' });
    for (const grace of [3600, 3600, 0]) expect((await api.post(rotatePath(endpoint.id), { grace_period_seconds: grace })).status).toBe(200);
    const stored = (await fixture.platform.db.collection('endpoints').findOne({ _id: endpoint.id } as never))!;
    expect(stored.previous_secrets).toEqual([]);
    const sealedAnywhere = JSON.stringify(stored).match(/"v1\.[^"]*"/g) ?? [];
    expect(sealedAnywhere).toEqual([JSON.stringify(stored.secret_sealed)]);
  });

  it.each([
    ['more than 7 days', { grace_period_seconds: 7 * 86_400 + 1 }],
    ['negative', { grace_period_seconds: -1 }],
    ['a fraction', { grace_period_seconds: 1.5 }],
    ['a string', { grace_period_seconds: '60' }],
    ['an unknown field', { grace: 60 }],
    ['not an object', [60]],
  ])('refuses a grace period that is %s with a 400 and changes nothing', async (_name, body) => {
    const { api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/x' });
    const res = await api.post(rotatePath(endpoint.id), body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}/secret`)).body.secret).toBe(endpoint.secret);
    expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body.secrets_in_grace).toEqual([]);
  });

  it('keeps at most 5 secrets alive: the current one and 4 in their grace period', async () => {
    const { api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/x' });
    for (let i = 0; i < 7; i++) expect((await api.post(rotatePath(endpoint.id), { grace_period_seconds: 3600 + i })).status).toBe(200);
    expect((await api.get(`/api/v1/webhooks/endpoints/${endpoint.id}`)).body.secrets_in_grace).toHaveLength(4);
  });

  it('seals replaced secrets at rest like the current one', async () => {
    const { api, endpoint } = await fixture.subscribe(() => ({ status: 200 }), { path: '/x' });
    await api.post(rotatePath(endpoint.id), { grace_period_seconds: 600 });
    const doc = await fixture.platform.db.collection('endpoints').findOne({ _id: endpoint.id } as never);
    expect(doc?.previous_secrets).toHaveLength(1);
    expect(JSON.stringify(doc)).not.toContain(endpoint.secret.slice('whsec_'.length));
  });

  it('the dashboard rotates with the grace period chosen, shows when it ends, and refuses another value', async () => {
    const client = DashboardClient.fromNewIp(fixture.platform.apiUrl!);
    const email = newEmail();
    await client.signUp(email, GOOD_PASSWORD);
    const account = await fixture.platform.repositories.accounts.findByEmail(email);
    const endpoint = await fixture.platform.services.endpoints.create(account!._id, { url: 'https://127.0.0.1:9/hook' });
    const path = `/dashboard/endpoints/${endpoint.id}`;
    expect((await client.get(path)).text).toContain('One (no replaced secret in a grace period)');

    const confirm = await client.get(`${path}/secret/rotate`);
    expect(confirm.text).toContain('name="grace_period_seconds"');
    const token = csrfTokenIn(confirm.text);
    expect((await client.post(`${path}/secret/rotate`, { _csrf: token, grace_period_seconds: 'soon' })).status).toBe(400);
    expect(await fixture.platform.services.endpoints.getSecret(account!._id, endpoint.id)).toBe(endpoint.secret);

    const before = Date.now();
    expect((await client.post(`${path}/secret/rotate`, { _csrf: token, grace_period_seconds: '3600' })).status).toBe(303);
    const after = Date.now();
    const [inGrace] = (await fixture.platform.services.endpoints.get(account!._id, endpoint.id)).secrets_in_grace;
    expect(Date.parse(inGrace!.expires_at)).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(Date.parse(inGrace!.expires_at)).toBeLessThanOrEqual(after + 3_600_000);
    const page = (await client.get(path)).text;
    expect(page).toMatch(/data-testid="secrets-in-grace">The current one, and 1 replaced secret in the rotation grace period/);
    expect(page).toContain(inGrace!.expires_at.slice(0, 16).replace('T', ' '));
  });
});

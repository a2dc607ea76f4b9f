import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, startTestPlatform } from '../support/platform';

/** CONTRACT §2 "Error body" and its error rules, against the real API. */
describe('errors', () => {
  let platform: Platform;
  let key: string;
  const LIST = '/api/v1/webhooks/endpoints';

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false } });
    ({ key } = await createAccountWithKey(platform));
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const send = (path: string, init: RequestInit = {}) => fetch(`${platform.apiUrl}${path}`, init);
  const auth = () => ({ Authorization: `Bearer ${key}` });
  async function expectJsonError(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ error: expect.any(String), code });
    return body;
  }

  it('unknown path: 404 JSON', async () => {
    await expectJsonError(await send('/no/such/path'), 404, 'not_found');
  });

  it('unknown path under /api/v1 with a valid key: 404 JSON', async () => {
    await expectJsonError(await send('/api/v1/webhooks/nothing', { headers: auth() }), 404, 'not_found');
  });

  it('wrong method: 405 JSON with an Allow header listing the methods of the path', async () => {
    const res = await send('/healthz', { method: 'DELETE' });
    await expectJsonError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')!.split(/,\s*/).sort()).toEqual(['GET', 'HEAD']);
  });

  it('wrong method on a key-scoped path: 405 with Allow', async () => {
    const res = await send(LIST, { method: 'PUT', headers: auth() });
    await expectJsonError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')!.split(/,\s*/).sort()).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('malformed JSON: 400 invalid_json', async () => {
    const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: '{"url": "https://example.com",' });
    await expectJsonError(res, 400, 'invalid_json');
  });

  it('a body that is not JSON (another content type): 400 invalid_json', async () => {
    const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'text/plain' }, body: 'url=https://example.com' });
    await expectJsonError(res, 400, 'invalid_json');
  });

  it('a JSON body labelled as a form (curl -d without -H) or unlabelled is read as JSON', async () => {
    const body = JSON.stringify({ url: 'https://example.com/hook' });
    for (const headers of [{ 'Content-Type': 'application/x-www-form-urlencoded' }, {}] as Record<string, string>[]) {
      const res = await send(LIST, { method: 'POST', headers: { ...auth(), ...headers }, body });
      expect(res.status).toBe(201);
      expect(((await res.json()) as any).url).toBe('https://example.com/hook');
    }
  });

  it('a form body that is not JSON: 400 invalid_json naming the Content-Type header', async () => {
    const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'url=https://example.com' });
    const body = await expectJsonError(res, 400, 'invalid_json');
    expect(body.error).toContain('Content-Type: application/json');
  });

  it('validation errors are written for people, and keep details[].path', async () => {
    const api = apiClient(platform, key);
    const event = await api.post('/api/v1/webhooks/events', { type: 'user.created', data: [1, 2] });
    expect(event.status).toBe(400);
    expect(event.body).toEqual({
      error: 'data must be a JSON object, not an array.',
      code: 'invalid_request',
      details: [{ path: 'data', message: 'must be a JSON object, not an array' }],
    });
    const missing = await api.post(LIST, { events: 'x' });
    expect(missing.body.error).toBe('url is required (and 1 more problem, see details).');
    expect(missing.body.details).toEqual([
      { path: 'url', message: 'is required' },
      { path: 'events', message: 'must be an array, not a string' },
    ]);
    const query = await api.get(`${LIST}?limit=abc`);
    expect(query.body).toMatchObject({ error: 'Query parameter limit must be a number.', details: [{ path: 'query.limit', message: 'must be a number' }] });
    const estimate = await apiClient(platform).post('/api/cost-estimator', { items: [{ provider: 'aws', service: 'Amazon EC2', instance: 'm5.large', quantity: 'two' }] });
    expect(estimate.body).toMatchObject({ error: 'items.0.quantity must be a number.', details: [{ path: 'items.0.quantity', message: 'must be a number' }] });
    for (const res of [event, missing, query, estimate]) expect(JSON.stringify(res.body)).not.toMatch(/Invalid input|expected \w+, received/);
  });

  it('a 401 says how to send the key (Authorization: Bearer; x-api-key on the estimator)', async () => {
    const none = await expectJsonError(await send(LIST), 401, 'invalid_api_key');
    expect(none.error).toContain('Authorization: Bearer svc_live_');
    const unknown = await expectJsonError(await send(LIST, { headers: { Authorization: `Bearer svc_live_weh_${'0'.repeat(32)}` } }), 401, 'invalid_api_key');
    expect(unknown.error).toContain('Authorization: Bearer svc_live_');
    const estimator = await expectJsonError(await send('/api/cost-estimator', { headers: { 'x-api-key': 'nope' } }), 401, 'invalid_api_key');
    expect(estimator.error).toContain('x-api-key');
  });

  it('a bad key is answered 401 before the body is even read (malformed JSON with no key)', async () => {
    const res = await send(LIST, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' });
    await expectJsonError(res, 401, 'invalid_api_key');
  });

  it('a body over 1 MiB: 413 (declared Content-Length)', async () => {
    const body = JSON.stringify({ url: 'https://example.com', description: 'x'.repeat(1024 * 1024) });
    const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body });
    await expectJsonError(res, 413, 'payload_too_large');
  });

  it('a body over 1 MiB: 413 (chunked, no Content-Length)', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 1024 * 1024 + chunk.length) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    await expectJsonError(res, 413, 'payload_too_large');
  });

  it('exactly 1 MiB is accepted as a body (the limit is "over 1 MiB")', async () => {
    const prefix = '{"url":"https://example.com/hook","description":"';
    const suffix = '"}';
    const body = prefix + 'x'.repeat(1024 * 1024 - prefix.length - suffix.length) + suffix;
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body });
    // Read and parsed: the description is then too long for the schema (400), not too large (413).
    const parsed = await expectJsonError(res, 400, 'invalid_request');
    expect(parsed.details).toEqual([{ path: 'description', message: expect.any(String) }]);
  });

  it('zod validation: 400 with details [{path, message}] naming every bad field', async () => {
    const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: JSON.stringify({ url: 42, events: 'x' }) });
    const body = await expectJsonError(res, 400, 'invalid_request');
    expect(body.details).toEqual(
      expect.arrayContaining([
        { path: 'url', message: expect.any(String) },
        { path: 'events', message: expect.any(String) },
      ]),
    );
    for (const d of body.details) expect(Object.keys(d).sort()).toEqual(['message', 'path']);
  });

  it('query validation: 400 with details naming the query parameter', async () => {
    const res = await send(`${LIST}?limit=0`, { headers: auth() });
    const body = await expectJsonError(res, 400, 'invalid_request');
    expect(body.details).toEqual([{ path: 'query.limit', message: expect.any(String) }]);
  });

  it('an unexpected exception: 500 with the request id and no stack trace in the body', async () => {
    const { key: own, accountId } = await createAccountWithKey(platform);
    const endpoints = platform.db.collection('endpoints');
    // A record the service cannot read makes the list throw a TypeError deep inside.
    await endpoints.insertOne({ _id: 'ep_broken' as never, account_id: accountId, url: 'https://example.com', events: ['*'], description: '', secret_sealed: 'x', disabled: false, created_at: 'not a date', updated_at: 'not a date' });
    try {
      const res = await send(LIST, { headers: { Authorization: `Bearer ${own}` } });
      const text = await res.text();
      expect(res.status).toBe(500);
      const body = JSON.parse(text);
      expect(body).toEqual({ error: expect.any(String), code: 'internal_error', request_id: res.headers.get('x-request-id') });
      expect(text).not.toMatch(/TypeError|toISOString|\.ts:\d+|at [\w.<>]+ \(/);
    } finally {
      await endpoints.deleteOne({ _id: 'ep_broken' as never });
    }
  });

  it('every response carries X-Request-Id (200, 401, 403, 404, 405, 400, 413, 429 and unversioned paths)', async () => {
    const { key: freeKey } = await createAccountWithKey(platform, { tier: 'free' });
    const { key: secKey } = await createAccountWithKey(platform, { product: 'sec' });
    const responses = [
      await send('/healthz'),
      await send('/openapi.json'),
      await send(LIST, { headers: auth() }),
      await send(LIST),
      await send(LIST, { headers: { Authorization: `Bearer ${secKey}` } }),
      await send('/nope'),
      await send('/healthz', { method: 'POST' }),
      await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: '{' }),
      await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Length': String(2 * 1024 * 1024) }, body: 'x'.repeat(2 * 1024 * 1024) }),
    ];
    for (let i = 0; i < 11; i++) responses.push(await send(LIST, { headers: { Authorization: `Bearer ${freeKey}` } }));
    expect(new Set(responses.map((r) => r.status))).toEqual(new Set([200, 401, 403, 404, 405, 400, 413, 429]));
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("X-Request-Id: a caller's sane id is echoed, an unsafe one replaced", async () => {
    const mine = await send('/healthz', { headers: { 'X-Request-Id': 'client-trace-1234' } });
    expect(mine.headers.get('x-request-id')).toBe('client-trace-1234');
    const unsafe = await send('/healthz', { headers: { 'X-Request-Id': 'bad id with spaces <script>' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('every error body is {"error","code"} (plus documented extras only)', async () => {
    const api = apiClient(platform);
    const res = await api.get(LIST);
    expect(Object.keys(res.body).sort()).toEqual(['code', 'error']);
  });
});

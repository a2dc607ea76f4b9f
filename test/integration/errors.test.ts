import { gzipSync } from 'node:zlib';
import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, startTestPlatform } from '../support/platform';
import { lastAnswer, rawExchange } from '../support/raw-http';

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

  /** The account's endpoint count: a refused body must leave it as it was. */
  const endpointCount = async () => ((await apiClient(platform, key).get(`${LIST}?limit=100`)).body.data as unknown[]).length;

  it('a JSON body labelled with another Content-Type (a form: curl -d without -H; text/plain: fetch of a string): 415 saying what to send, nothing created', async () => {
    const before = await endpointCount();
    const body = JSON.stringify({ url: 'https://example.com/hook' });
    for (const type of ['application/x-www-form-urlencoded', 'text/plain;charset=UTF-8', 'multipart/form-data; boundary=x', 'application/xml']) {
      const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': type }, body });
      const answer = await expectJsonError(res, 415, 'unsupported_media_type');
      expect(answer.error).toContain(`sent as ${type.split(';')[0]}`);
      expect(answer.error).toContain('Content-Type: application/json');
    }
    expect(await endpointCount()).toBe(before);
  });

  it('a body that is not UTF-8 (JSON is): 400 invalid_json, nothing created, where a lenient decoder would store U+FFFD', async () => {
    const before = await endpointCount();
    const body = Buffer.concat([Buffer.from('{"url": "https://example.com/hook", "description": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body });
    const answer = await expectJsonError(res, 400, 'invalid_json');
    expect(answer.error).toBe('Request body is not valid UTF-8.');
    expect(await endpointCount()).toBe(before);
  });

  it('a body refused as a whole (not JSON, not UTF-8, nested too deep) is a 400 whose details name the body root, as for an array body', async () => {
    const notUtf8 = Buffer.concat([Buffer.from('{"type": "caf'), Buffer.from([0xe9]), Buffer.from('", "data": {}}')]);
    const tooDeep = `{"type": "deep", "data": ${'['.repeat(70)}${']'.repeat(70)}}`;
    const cases: Array<[string | Buffer, string, string]> = [
      ['{bad', 'invalid_json', 'is not valid JSON'],
      [notUtf8, 'invalid_json', 'is not valid UTF-8'],
      [tooDeep, 'json_too_deep', 'nests objects and arrays more than 64 levels deep'],
      ['[]', 'invalid_request', 'must be a JSON object, not an array'],
    ];
    for (const path of ['/api/v1/webhooks/events', '/api/cost-estimator']) {
      for (const [body, code, message] of cases) {
        const headers = { ...(path === '/api/cost-estimator' ? {} : auth()), 'Content-Type': 'application/json' };
        const answer = await expectJsonError(await send(path, { method: 'POST', headers, body }), 400, code);
        expect(answer.details).toEqual([{ path: '', message }]);
      }
    }
  });

  it('a UTF-8 body that starts with a byte order mark is read as the JSON after it', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"url": "https://example.com/hook", "description": "café"}')]);
    const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body });
    expect(res.status).toBe(201);
    expect(((await res.json()) as any).description).toBe('café');
  });

  it('a JSON body is read when labelled application/json (any charset, or a +json type) or not labelled at all', async () => {
    const body = JSON.stringify({ url: 'https://example.com/hook' });
    // A byte body: fetch adds no Content-Type of its own (a string would be labelled text/plain).
    const unlabelled = await send(LIST, { method: 'POST', headers: auth(), body: new TextEncoder().encode(body) });
    expect(unlabelled.status).toBe(201);
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json']) {
      const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': type }, body });
      expect(res.status).toBe(201);
      expect(((await res.json()) as any).url).toBe('https://example.com/hook');
    }
  });

  it('a body with a Content-Encoding (gzip that is not gzip, real gzip, anything but identity): 415 with Accept-Encoding: identity, nothing created', async () => {
    const before = await endpointCount();
    const json = JSON.stringify({ url: 'https://example.com/hook' });
    const bodies: Array<[string, Uint8Array | string]> = [
      ['gzip', json],
      ['gzip', gzipSync(json)],
      ['br', json],
      ['deflate, gzip', json],
    ];
    for (const [encoding, body] of bodies) {
      const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json', 'Content-Encoding': encoding }, body });
      const answer = await expectJsonError(res, 415, 'unsupported_media_type');
      expect(answer.error).toContain(`Content-Encoding ${encoding} is not supported`);
      expect(answer.error).toContain('uncompressed');
      expect(res.headers.get('accept-encoding')).toBe('identity');
    }
    expect(await endpointCount()).toBe(before);
    const identity = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json', 'Content-Encoding': 'identity' }, body: json });
    expect(identity.status).toBe(201);
  });

  it('a form body that is not JSON: 400 invalid_json naming the Content-Type header', async () => {
    const res = await send(LIST, { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'url=https://example.com' });
    const body = await expectJsonError(res, 400, 'invalid_json');
    expect(body.error).toContain('Content-Type: application/json');
  });

  describe('an unknown field in any body is a 400 naming it, and changes nothing (arbitrary keys inside ingest `data` are the event\'s own)', () => {
    it('ingest: an unknown top-level field is refused, nothing is stored; unknown keys at any depth of data are kept', async () => {
      const { key: own } = await createAccountWithKey(platform);
      const api = apiClient(platform, own);
      const refused = await api.post('/api/v1/webhooks/events', { type: 'order.created', data: { a: 1 }, idempotency_keys: 'k1' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: 'The request body has an unknown field "idempotency_keys".',
        code: 'invalid_request',
        details: [{ path: '', message: 'has an unknown field "idempotency_keys"' }],
      });
      expect((await api.get('/api/v1/webhooks/events')).body.data).toEqual([]);
      const data = { anything: { nested: { deep: [1, { free: true }] } }, type: 'not the event type' };
      const accepted = await api.post('/api/v1/webhooks/events', { type: 'order.created', data });
      expect(accepted.status).toBe(202);
      expect((await api.get(`/api/v1/webhooks/events/${accepted.body.id}`)).body.data).toEqual(data);
    });

    it('endpoints: create, update, recover and retry-now name the unknown field; the endpoint is unchanged', async () => {
      const { key: own } = await createAccountWithKey(platform);
      const api = apiClient(platform, own);
      const create = await api.post(LIST, { url: 'https://example.com/hook', event: ['order.*'] });
      expect(create.status).toBe(400);
      expect(create.body.error).toBe('The request body has an unknown field "event".');
      expect((await api.get(LIST)).body.data).toEqual([]);
      const endpoint = (await api.post(LIST, { url: 'https://example.com/hook' })).body;
      const patch = await api.patch(`${LIST}/${endpoint.id}`, { description: 'changed', disable: true, extra: 1 });
      expect(patch.status).toBe(400);
      expect(patch.body.error).toBe('The request body has unknown fields "disable", "extra".');
      const unchanged = (await api.get(`${LIST}/${endpoint.id}`)).body;
      expect({ description: unchanged.description, disabled: unchanged.disabled, updated_at: unchanged.updated_at }).toEqual({
        description: endpoint.description,
        disabled: false,
        updated_at: endpoint.updated_at,
      });
      const recover = await api.post(`${LIST}/${endpoint.id}/recover`, { since: new Date(Date.now() - 60_000).toISOString(), until: 'now' });
      expect(recover.body).toMatchObject({ code: 'invalid_request', error: 'The request body has an unknown field "until".' });
      const retryNow = await api.post(`${LIST}/${endpoint.id}/retry-now`, { cursors: 'x' });
      expect(retryNow.body).toMatchObject({ code: 'invalid_request', error: 'The request body has an unknown field "cursors".' });
    });

    it('an operation that takes no body refuses any field in one (an empty object or no body is fine)', async () => {
      const { key: own } = await createAccountWithKey(platform);
      const api = apiClient(platform, own);
      const endpoint = (await api.post(LIST, { url: 'https://example.com/hook' })).body;
      const paused = await api.post(`${LIST}/${endpoint.id}/pause`, { reason: 'maintenance' });
      expect(paused.status).toBe(400);
      expect(paused.body.error).toBe('The request body has an unknown field "reason".');
      expect((await api.get(`${LIST}/${endpoint.id}`)).body.paused).toBe(false);
      expect((await api.post(`${LIST}/${endpoint.id}/pause`, {})).status).toBe(200);
      expect((await api.post(`${LIST}/${endpoint.id}/resume`)).status).toBe(200);
    });

    it('a DELETE with a body that is not JSON, or that has a field, is refused and deletes nothing', async () => {
      const { key: own } = await createAccountWithKey(platform);
      const headers = { Authorization: `Bearer ${own}`, 'Content-Type': 'application/json' };
      const endpoint = (await apiClient(platform, own).post(LIST, { url: 'https://example.com/hook' })).body;
      await expectJsonError(await send(`${LIST}/${endpoint.id}`, { method: 'DELETE', headers, body: '{bad' }), 400, 'invalid_json');
      const withField = await expectJsonError(await send(`${LIST}/${endpoint.id}`, { method: 'DELETE', headers, body: '{"evnets":1}' }), 400, 'invalid_request');
      expect(withField.error).toBe('The request body has an unknown field "evnets".');
      expect((await send(`${LIST}/${endpoint.id}`, { headers })).status).toBe(200);
      expect((await send(`${LIST}/${endpoint.id}`, { method: 'DELETE', headers, body: '{}' })).status).toBe(204);
    });
  });

  it('a path no route answers is a 404, and a method it does not take a 405, whatever the body (it is not read)', async () => {
    const json = { ...auth(), 'Content-Type': 'application/json' };
    await expectJsonError(await send('/nope', { method: 'POST', headers: json, body: '{bad' }), 404, 'not_found');
    await expectJsonError(await send('/api/v1/webhooks/nope', { method: 'POST', headers: json, body: '{bad' }), 404, 'not_found');
    await expectJsonError(await send(LIST, { method: 'PUT', headers: { ...auth(), 'Content-Type': 'text/plain' }, body: '{}' }), 405, 'method_not_allowed');
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
    expect(missing.body.error).toBe('events must be an array, not a string (and 1 more problem, see details).');
    expect(missing.body.details).toEqual([
      { path: 'events', message: 'must be an array, not a string' },
      { path: 'url', message: 'is required unless destination is given' },
    ]);
    const query = await api.get(`${LIST}?limit=abc`);
    expect(query.body).toMatchObject({ error: 'Query parameter limit must be a number.', details: [{ path: 'query.limit', message: 'must be a number' }] });
    const estimate = await apiClient(platform).post('/api/cost-estimator', { items: [{ provider: 'aws', service: 'Amazon EC2', instance: 'm5.large', quantity: 'two' }] });
    expect(estimate.body).toMatchObject({ error: 'items.0.quantity must be a number.', details: [{ path: 'items.0.quantity', message: 'must be a number' }] });
    for (const res of [event, missing, query, estimate]) expect(JSON.stringify(res.body)).not.toMatch(/Invalid input|expected \w+, received/);
  });

  it('an event id in a path: a positive integer past 2^53 - 1 is a 404 as any unknown id, on every route taking one; no positive integer is a 400', async () => {
    const api = apiClient(platform, key);
    const endpoint = (await api.post(LIST, { url: 'https://example.com/hook' })).body;
    const routes = (id: string) => [
      ['GET', `/api/v1/webhooks/events/${id}`],
      ...['retry', 'retry-now', 'cancel'].map((action) => ['POST', `/api/v1/webhooks/events/${id}/deliveries/${endpoint.id}/${action}`]),
    ] as const;
    for (const id of ['9007199254740992', '9999999999999999', '1'.repeat(40)]) {
      for (const [method, path] of routes(id)) {
        const res = await api.call(method, path);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { error: `Event ${id} not found.`, code: 'not_found' } });
      }
    }
    for (const id of ['0', '01', '-1', '1e3']) {
      for (const [method, path] of routes(id)) {
        const res = await api.call(method, path);
        expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 400, code: 'invalid_event_id' });
      }
    }
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

  const port = () => Number(new URL(platform.apiUrl!).port);

  it('a request line and headers over 16 KiB: 431 headers_too_large JSON, on a connection that already served a request too', async () => {
    const { raw } = await rawExchange(port(), ['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', `GET ${LIST}?cursor=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expect(raw).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const { head, body } = lastAnswer(raw);
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(head).toContain('\r\nContent-Type: application/json; charset=utf-8\r\n');
    expect(body).toEqual({ error: 'The request line and headers together are over 16 KiB.', code: 'headers_too_large' });
  });

  it('a request that is not HTTP/1.1: 400 invalid_request JSON, and the connection closed', async () => {
    const { head, body } = lastAnswer((await rawExchange(port(), ['NOT HTTP AT ALL\r\n\r\n'])).raw);
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toContain('\r\nContent-Type: application/json; charset=utf-8\r\n');
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/);
    expect(body).toEqual({ error: 'The request is not valid HTTP/1.1.', code: 'invalid_request', details: [{ path: '', message: 'is not valid HTTP/1.1' }] });
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

  it('a query parameter given twice: 400 saying so, not that it is no number', async () => {
    const body = await expectJsonError(await send(`${LIST}?limit=1&limit=2`, { headers: auth() }), 400, 'invalid_request');
    expect(body).toMatchObject({ error: 'Query parameter limit must be given once.', details: [{ path: 'query.limit', message: 'must be given once' }] });
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

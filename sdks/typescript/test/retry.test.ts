/** The retry advice, with an injected clock and jitter: no test waits. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlatformClient, PlatformError, retryDelayMs, type ClientOptions } from '../src/index.js';

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | 'no answer';

const EVENT = { id: 7, type: 'order.created', timestamp: 1_800_000_000, idempotency_key: 'k', destinations: 1 };
const BURST = { status: 429, body: { error: 'Rate limit exceeded', code: 'rate_limit_exceeded', retry_after: 3, remaining: 0 }, headers: { 'Retry-After': '3' } };
const OVERLOADED = { status: 503, body: { error: 'Overloaded', code: 'overloaded', retry_after: 1 }, headers: { 'Retry-After': '1' } };

/** A client whose server answers `replies` in turn (the last one from then on), and what it was sent and how long it waited. */
function scripted(replies: Reply[], options: ClientOptions = {}) {
  const requests: Array<{ method: string; url: string; headers: Headers; body: any }> = [];
  const waits: number[] = [];
  const client = new PlatformClient('https://platform.test/', 'svc_live_weh_test', {
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    fetch: async (request) => {
      const text = await request.text();
      requests.push({ method: request.method, url: request.url, headers: request.headers, body: text ? JSON.parse(text) : undefined });
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)];
      if (reply === 'no answer') throw new TypeError('fetch failed');
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), { status: reply.status, headers: { 'Content-Type': 'application/json', 'X-Request-Id': `req_${requests.length}`, ...reply.headers } });
    },
    ...options,
  });
  return { client, requests, waits };
}

describe('retries of a 429 or a 503', () => {
  it('waits Retry-After seconds, doubled on each retry, plus the jitter', async () => {
    const { client, waits } = scripted([BURST, BURST, BURST, { status: 202, body: EVENT }]);
    assert.deepEqual(await client.events.send('order.created', {}), EVENT);
    assert.deepEqual(waits, [3000 + 250, 6000 + 250, 12000 + 250]);
  });

  it('waits 1 s doubled when the answer has no Retry-After', async () => {
    const { client, waits } = scripted([{ status: 503, body: { error: 'Service unavailable', code: 'service_unavailable' } }, { status: 503, body: { error: 'Service unavailable', code: 'service_unavailable' } }, { status: 202, body: EVENT }]);
    await client.events.send('order.created', {});
    assert.deepEqual(waits, [1000 + 250, 2000 + 250]);
  });

  it('retries a 503 overloaded shed as a 429', async () => {
    const { client, waits, requests } = scripted([OVERLOADED, { status: 202, body: EVENT }]);
    await client.events.send('order.created', {});
    assert.equal(requests.length, 2);
    assert.deepEqual(waits, [1000 + 250]);
  });

  it('adds a jitter of at least 0 and at most 500 ms, uniform in the random number', () => {
    assert.equal(retryDelayMs(0, 2, 0), 2000);
    assert.equal(retryDelayMs(0, 2, 0.5), 2250);
    assert.ok(retryDelayMs(0, 2, 0.999999) < 2500);
    for (let retry = 0; retry < 5; retry++) {
      for (const random of [0, 0.1, 0.7, 0.999999]) {
        const jitter = retryDelayMs(retry, 2, random) - 2000 * 2 ** retry;
        assert.ok(jitter >= 0 && jitter <= 500, `retry ${retry}, random ${random}: jitter ${jitter}`);
      }
    }
  });

  it('gives up after 5 retries (6 calls) and throws the last answer as a PlatformError', async () => {
    const { client, waits, requests } = scripted([BURST]);
    const error = await client.events.send('order.created', {}).catch((err: unknown) => err);
    assert.ok(error instanceof PlatformError);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'rate_limit_exceeded');
    assert.equal(error.retryAfterSeconds, 3);
    assert.equal(error.requestId, 'req_6');
    assert.equal(requests.length, 6);
    assert.deepEqual(waits, [3000, 6000, 12000, 24000, 48000].map((ms) => ms + 250));
  });

  it('makes at most maxRetries retries when it is set', async () => {
    const { client, requests } = scripted([BURST], { maxRetries: 2 });
    await assert.rejects(client.endpoints.get('ep_1'), PlatformError);
    assert.equal(requests.length, 3);
  });

  it('gives up, throwing the last answer at once, when the next wait would pass maxRetryWaitMs in all', async () => {
    const { client, waits, requests } = scripted([BURST], { maxRetryWaitMs: 20_000 });
    const error = await client.events.send('order.created', {}).catch((err: unknown) => err);
    assert.ok(error instanceof PlatformError);
    assert.equal(error.code, 'rate_limit_exceeded');
    assert.deepEqual(waits, [3000 + 250, 6000 + 250]);
    assert.equal(requests.length, 3);
  });

  it('counts the waits after a try that got no answer against maxRetryWaitMs too', async () => {
    const { client, waits, requests } = scripted(['no answer'], { maxRetryWaitMs: 2_000 });
    await assert.rejects(client.events.send('order.created', {}), TypeError);
    assert.deepEqual(waits, [1000 + 250]);
    assert.equal(requests.length, 2);
  });

  it('retries every kind of call, reads and changes alike', async () => {
    const endpoint = { id: 'ep_1' };
    const { client, requests } = scripted([BURST, { status: 200, body: endpoint }]);
    assert.deepEqual(await client.endpoints.update('ep_1', { description: 'x' }), endpoint);
    assert.deepEqual(requests.map((r) => r.method), ['PATCH', 'PATCH']);
  });

  it('does not retry a spent monthly quota: it lasts until the next period', async () => {
    const { client, requests } = scripted([{ status: 429, body: { error: 'Monthly quota exceeded', code: 'quota_exceeded', quota_limit: 500, quota_used: 500, reset_at: '2026-12-01T00:00:00.000Z' }, headers: { 'Retry-After': '500000' } }]);
    await assert.rejects(client.events.send('order.created', {}), (err: PlatformError) => err.code === 'quota_exceeded');
    assert.equal(requests.length, 1);
  });

  it('does not retry any other error', async () => {
    for (const [status, code] of [[400, 'invalid_request'], [401, 'invalid_api_key'], [404, 'not_found'], [500, 'internal_error']] as const) {
      const { client, requests } = scripted([{ status, body: { error: 'no', code } }]);
      await assert.rejects(client.endpoints.get('ep_1'), (err: PlatformError) => err.status === status && err.code === code);
      assert.equal(requests.length, 1);
    }
  });
});

describe('idempotency keys of events.send', () => {
  it('sends the same key on every retry of one call', async () => {
    const { client, requests } = scripted([BURST, OVERLOADED, BURST, { status: 202, body: EVENT }]);
    await client.events.send('order.created', { n: 1 });
    const keys = requests.map((r) => r.body.idempotency_key);
    assert.equal(keys.length, 4);
    assert.equal(new Set(keys).size, 1);
    assert.match(keys[0], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('makes a new random key for each call without one', async () => {
    const { client, requests } = scripted([{ status: 202, body: EVENT }]);
    await client.events.send('order.created', {});
    await client.events.send('order.created', {});
    assert.notEqual(requests[0].body.idempotency_key, requests[1].body.idempotency_key);
  });

  it('sends the caller’s key when it is given', async () => {
    const { client, requests } = scripted([{ status: 200, body: EVENT }]);
    await client.events.send('order.created', { n: 1 }, { idempotencyKey: 'order_42_created' });
    assert.deepEqual(requests[0].body, { type: 'order.created', data: { n: 1 }, idempotency_key: 'order_42_created' });
  });

  it('retries a send that got no answer, with the same key', async () => {
    const { client, requests, waits } = scripted(['no answer', 'no answer', { status: 200, body: EVENT }]);
    assert.deepEqual(await client.events.send('order.created', {}), EVENT);
    assert.equal(new Set(requests.map((r) => r.body.idempotency_key)).size, 1);
    assert.deepEqual(waits, [1000 + 250, 2000 + 250]);
  });

  it('gives up a send that never gets an answer after 5 retries, throwing the network error', async () => {
    const { client, requests } = scripted(['no answer']);
    await assert.rejects(client.events.send('order.created', {}), TypeError);
    assert.equal(requests.length, 6);
  });

  it('does not repeat a call that is not safe to repeat when it got no answer (an endpoint could be made twice)', async () => {
    const { client, requests } = scripted(['no answer', { status: 201, body: { id: 'ep_1' } }]);
    await assert.rejects(client.endpoints.create({ url: 'https://example.com/hook' }), TypeError);
    assert.equal(requests.length, 1);
  });
});

describe('requests and answers', () => {
  it('authenticates with the key as a bearer token, at the base URL', async () => {
    const { client, requests } = scripted([{ status: 200, body: { id: 'ep_1' } }]);
    await client.endpoints.get('ep_1');
    assert.equal(requests[0].url, 'https://platform.test/api/v1/webhooks/endpoints/ep_1');
    assert.equal(requests[0].headers.get('authorization'), 'Bearer svc_live_weh_test');
  });

  it('throws an error answer as a PlatformError with its code, message, status, request id and body', async () => {
    const body = { error: 'Invalid request', code: 'invalid_request', details: [{ path: 'url', message: 'Required' }] };
    const { client } = scripted([{ status: 400, body }]);
    const error = await client.endpoints.create({} as never).catch((err: unknown) => err);
    assert.ok(error instanceof PlatformError);
    assert.deepEqual({ status: error.status, code: error.code, message: error.message, requestId: error.requestId, body: error.body }, { status: 400, code: 'invalid_request', message: 'Invalid request', requestId: 'req_1', body });
  });

  it('gives an answer that is not the platform’s (a proxy page) no code', async () => {
    const { client } = scripted([{ status: 502, body: '<html>Bad gateway</html>' }]);
    const error = await client.endpoints.get('ep_1').catch((err: unknown) => err);
    assert.ok(error instanceof PlatformError);
    assert.equal(error.status, 502);
    assert.equal(error.code, undefined);
  });

  it('events.list yields every event of every page, following next_cursor', async () => {
    const event = (id: number) => ({ ...EVENT, id });
    const requests: string[] = [];
    const pages = [
      { data: [event(5), event(4)], next_cursor: 'c1' },
      { data: [event(3), event(2)], next_cursor: 'c2' },
      { data: [event(1)], next_cursor: null },
    ];
    const paged = new PlatformClient('https://platform.test', 'k', {
      fetch: async (request) => {
        requests.push(new URL(request.url).search);
        return Response.json(pages[requests.length - 1]);
      },
    });
    const ids: number[] = [];
    for await (const e of paged.events.list({ type: 'order.created', limit: 2 })) ids.push(e.id);
    assert.deepEqual(ids, [5, 4, 3, 2, 1]);
    assert.deepEqual(requests, ['?type=order.created&limit=2', '?type=order.created&limit=2&cursor=c1', '?type=order.created&limit=2&cursor=c2']);
  });
});

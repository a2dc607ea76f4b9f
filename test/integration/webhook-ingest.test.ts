import type { Platform } from '../../src/main/platform';
import { deliveryClosed } from '../support/delivery-workflows';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';

/** CONTRACT §4: ingest validation, ids, idempotency and fan-out. */
describe('webhook event ingest', () => {
  let platform: Platform;
  let now = Date.now();
  const clock = () => new Date(now);
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    platform = await startTestPlatform({ clock });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
  });

  async function account() {
    return apiClient(platform, (await createAccountWithKey(platform)).key);
  }
  const ingest = (api: ReturnType<typeof apiClient>, body: unknown, headers?: Record<string, string>) =>
    api.post('/api/v1/webhooks/events', body, headers);

  it('accepts a new event with 202 and the documented body', async () => {
    const api = await account();
    const res = await ingest(api, { type: 'user.created', data: { id: 'u1' } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.any(Number), type: 'user.created', timestamp: Math.floor(now / 1000), idempotency_key: null, destinations: 0 });
    expect(res.body.id).toBeGreaterThan(0);
  });

  it('assigns increasing integer ids', async () => {
    const api = await account();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await ingest(api, { type: 'a.b', data: {} })).body.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(5);
  });

  it('gives unique ids to concurrent ingests', async () => {
    const api = await account();
    const results = await Promise.all(Array.from({ length: 30 }, () => ingest(api, { type: 'a.b', data: {} })));
    expect(results.every((r) => r.status === 202)).toBe(true);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(30);
  });

  it.each([
    ['a missing type', { data: {} }],
    ['an empty type', { type: '', data: {} }],
    ['a type with spaces', { type: 'user created', data: {} }],
    ['a type over 256 characters', { type: 'a'.repeat(257), data: {} }],
    ['missing data', { type: 'a.b' }],
    ['data that is an array', { type: 'a.b', data: [1, 2] }],
    ['data that is null', { type: 'a.b', data: null }],
    ['data that is a string', { type: 'a.b', data: 'x' }],
    ['an empty idempotency_key', { type: 'a.b', data: {}, idempotency_key: '' }],
    ['an idempotency_key over 255 characters', { type: 'a.b', data: {}, idempotency_key: 'k'.repeat(256) }],
    ['an idempotency_key holding a NUL', { type: 'a.b', data: {}, idempotency_key: 'order\u0000paid' }],
    ['an idempotency_key holding a lone surrogate', { type: 'a.b', data: {}, idempotency_key: 'order\ud800paid' }],
    ['an idempotency_key holding a line break', { type: 'a.b', data: {}, idempotency_key: 'order\npaid' }],
    ['an idempotency_key holding a C1 control character', { type: 'a.b', data: {}, idempotency_key: 'order\u0085paid' }],
  ])('answers 400 for %s and stores nothing', async (_name, body) => {
    const api = await account();
    const res = await ingest(api, body);
    expect(res.status).toBe(400);
    expect(res.body.details.length).toBeGreaterThan(0);
    expect((await api.get('/api/v1/webhooks/events')).body.data).toEqual([]);
  });

  it('answers 422 `reserved_event_type` for a type starting `platform.`, which only the platform emits, and stores nothing', async () => {
    const api = await account();
    const res = await ingest(api, { type: 'platform.endpoint.disabled', data: {} });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('reserved_event_type');
    expect((await api.get('/api/v1/webhooks/events')).body.data).toEqual([]);
  });

  it('answers 413 when data serializes to more than 256 KiB', async () => {
    const api = await account();
    const res = await ingest(api, { type: 'big.one', data: { blob: 'x'.repeat(256 * 1024) } });
    expect(res.status).toBe(413);
    expect((await api.get('/api/v1/webhooks/events')).body.data).toEqual([]);
  });

  it('returns the original event with 200 for a repeated idempotency key, whatever the new body says', async () => {
    const api = await account();
    const first = await ingest(api, { type: 'order.paid', data: { n: 1 }, idempotency_key: 'order_1_paid' });
    const again = await ingest(api, { type: 'order.refunded', data: { n: 2 }, idempotency_key: 'order_1_paid' });
    expect(first.status).toBe(202);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await api.get('/api/v1/webhooks/events')).body.data).toHaveLength(1);
  });

  it('accepts the Idempotency-Key header as the same key', async () => {
    const api = await account();
    const first = await ingest(api, { type: 'a.b', data: {} }, { 'Idempotency-Key': 'hdr-1' });
    const again = await ingest(api, { type: 'a.b', data: {}, idempotency_key: 'hdr-1' });
    expect(first.body.idempotency_key).toBe('hdr-1');
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
  });

  it('takes a key with spaces and any script, the same in the body field and the header (its bytes read as UTF-8)', async () => {
    const api = await account();
    const key = 'commande 42 payée ключ 注文';
    const first = await ingest(api, { type: 'a.b', data: {}, idempotency_key: key });
    expect([first.status, first.body.idempotency_key]).toEqual([202, key]);
    // fetch sends a header's characters as bytes (Latin-1): the UTF-8 bytes of the key, spelled so.
    const again = await ingest(api, { type: 'a.b', data: {} }, { 'Idempotency-Key': Buffer.from(key, 'utf8').toString('latin1') });
    expect([again.status, again.body.id]).toEqual([200, first.body.id]);
  });

  it.each([
    ['nothing (sent empty)', ''],
    ['a control character', 'order\t1'],
    ['bytes that are not UTF-8', 'commande-pay\u00e9e'],
  ])('answers 400 for an Idempotency-Key header holding %s and stores nothing', async (_name, key) => {
    const api = await account();
    const res = await ingest(api, { type: 'a.b', data: {} }, { 'Idempotency-Key': key });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: 'headers.Idempotency-Key', message: expect.any(String) }]);
    expect((await api.get('/api/v1/webhooks/events')).body.data).toEqual([]);
  });

  it('accepts an idempotency key of 255 characters', async () => {
    const api = await account();
    const key = `${'!'.repeat(126)} ~${'é'.repeat(127)}`;
    const res = await ingest(api, { type: 'a.b', data: {}, idempotency_key: key });
    expect(res.status).toBe(202);
    expect(res.body.idempotency_key).toBe(key);
  });

  it('yields exactly one event for concurrent repeats of one key', async () => {
    const api = await account();
    const results = await Promise.all(Array.from({ length: 20 }, () => ingest(api, { type: 'a.b', data: {}, idempotency_key: 'race' })));
    expect(results.filter((r) => r.status === 202)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(19);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    await eventually(async () => (await api.get('/api/v1/webhooks/events')).body.data.length === 1 || undefined);
    expect(await platform.db.collection('events').countDocuments({ idempotency_key: 'race' })).toBe(1);
  });

  it('keeps idempotency keys per account', async () => {
    const a = await ingest(await account(), { type: 'a.b', data: {}, idempotency_key: 'shared' });
    const b = await ingest(await account(), { type: 'a.b', data: {}, idempotency_key: 'shared' });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('frees the key again after 24 hours', async () => {
    const api = await account();
    const first = await ingest(api, { type: 'a.b', data: {}, idempotency_key: 'daily' });
    now += 24 * 3600 * 1000 - 1000;
    expect((await ingest(api, { type: 'a.b', data: {}, idempotency_key: 'daily' })).status).toBe(200);
    now += 2000;
    const later = await ingest(api, { type: 'a.b', data: {}, idempotency_key: 'daily' });
    expect(later.status).toBe(202);
    expect(later.body.id).not.toBe(first.body.id);
    expect((await ingest(api, { type: 'a.b', data: {}, idempotency_key: 'daily' })).body.id).toBe(later.body.id);
  });

  it('gives an expired key to exactly one of concurrent new uses', async () => {
    const api = await account();
    const first = await ingest(api, { type: 'a.b', data: {}, idempotency_key: 'successors' });
    now += 24 * 3600 * 1000 + 1000;
    const results = await Promise.all(Array.from({ length: 10 }, () => ingest(api, { type: 'a.b', data: {}, idempotency_key: 'successors' })));
    expect(results.filter((r) => r.status === 202)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.id))).toEqual(new Set([results.find((r) => r.status === 202)!.body.id]));
    expect(results[0].body.id).not.toBe(first.body.id);
  });

  it('delivers a repeat of an idempotency key only once', async () => {
    const api = await account();
    const endpoint = await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/once`, events: ['once.*'] });
    const before = receiver.received.length;
    const first = await ingest(api, { type: 'once.only', data: {}, idempotency_key: 'k1' });
    await ingest(api, { type: 'once.only', data: {}, idempotency_key: 'k1' });
    await eventually(async () => (await api.get(`/api/v1/webhooks/events/${first.body.id}`)).body.status === 'delivered' || undefined);
    expect(await deliveryClosed(platform.temporal, first.body.id, endpoint.body.id)).toBe('COMPLETED');
    expect(receiver.received.slice(before).filter((r) => r.path === '/once')).toHaveLength(1);
    expect(endpoint.status).toBe(201);
  });

  it('stores an event with no matching endpoint as delivered with no destinations', async () => {
    const api = await account();
    await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/x`, events: ['other.*'] });
    const res = await ingest(api, { type: 'lonely.event', data: {} });
    expect(res.body.destinations).toBe(0);
    const event = await api.get(`/api/v1/webhooks/events/${res.body.id}`);
    expect(event.body).toMatchObject({ status: 'delivered', deliveries: [] });
  });

  it('fans out to every matching enabled endpoint and to no other', async () => {
    const api = await account();
    const ep = async (path: string, events: string[]) => (await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}${path}`, events })).body.id;
    const all = await ep('/all', ['*']);
    const prefix = await ep('/prefix', ['order.*']);
    const exact = await ep('/exact', ['order.created']);
    await ep('/other', ['user.*']);
    await ep('/near', ['order.create']);
    const disabled = await ep('/disabled', ['*']);
    await api.patch(`/api/v1/webhooks/endpoints/${disabled}`, { disabled: true });

    const res = await ingest(api, { type: 'order.created', data: { total: 10 } });
    expect(res.body.destinations).toBe(3);
    const event = await eventually(async () => {
      const e = (await api.get(`/api/v1/webhooks/events/${res.body.id}`)).body;
      return e.status === 'delivered' ? e : undefined;
    });
    expect(event.deliveries.map((d: { endpoint_id: string }) => d.endpoint_id).sort()).toEqual([all, prefix, exact].sort());
    const paths = receiver.received.filter((r) => JSON.parse(r.rawBody).id === res.body.id).map((r) => r.path).sort();
    expect(paths).toEqual(['/all', '/exact', '/prefix']);
  });

  it.each(['abc', '0', '-1', '1.5'])('answers 400 for event id %s', async (id) => {
    expect((await (await account()).get(`/api/v1/webhooks/events/${id}`)).status).toBe(400);
  });

  it("answers 404 for an unknown event and for another account's event", async () => {
    const api = await account();
    const id = (await ingest(api, { type: 'a.b', data: {} })).body.id;
    expect((await api.get('/api/v1/webhooks/events/999999999')).status).toBe(404);
    expect((await (await account()).get(`/api/v1/webhooks/events/${id}`)).status).toBe(404);
  });

  it('answers 400 invalid_cursor for an event-list cursor it did not hand out, even one of well-formed JSON', async () => {
    const api = await account();
    for (const value of [{ s: -1 }, { s: 1.5 }, { s: '3' }, { after: 'x' }]) {
      const res = await api.get(`/api/v1/webhooks/events?cursor=${Buffer.from(JSON.stringify(value)).toString('base64url')}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
  });

  it('lists events newest first with type and status filters and a cursor', async () => {
    const api = await account();
    const ids = [];
    for (const type of ['x.one', 'x.two', 'x.one', 'x.two']) ids.push((await ingest(api, { type, data: {} })).body.id);
    const page = await api.get('/api/v1/webhooks/events?limit=3');
    expect(page.body.data.map((e: { id: number }) => e.id)).toEqual([ids[3], ids[2], ids[1]]);
    const rest = await api.get(`/api/v1/webhooks/events?limit=3&cursor=${page.body.next_cursor}`);
    expect(rest.body.data.map((e: { id: number }) => e.id)).toEqual([ids[0]]);
    expect(rest.body.next_cursor).toBeNull();
    const ones = await api.get('/api/v1/webhooks/events?type=x.one');
    expect(ones.body.data.map((e: { id: number }) => e.id)).toEqual([ids[2], ids[0]]);
    const delivered = await api.get('/api/v1/webhooks/events?status=delivered');
    expect(delivered.body.data).toHaveLength(4);
    expect((await api.get('/api/v1/webhooks/events?status=failed')).body.data).toEqual([]);
    expect((await api.get('/api/v1/webhooks/events?status=bogus')).status).toBe(400);
  });
});

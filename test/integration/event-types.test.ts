import type { Platform } from '../../src/main/platform';
import { MAX_EVENT_TYPE_SCHEMA_BYTES, MAX_EVENT_TYPES_PER_ACCOUNT } from '../../src/domain/webhooks/event-type';
import { fakeClock } from '../support/fake-clock';
import { holdMethod } from '../support/gate';
import { apiClient, createAccountWithKey, invalidationsReadFrom, startTestPlatform } from '../support/platform';

const TYPES = '/api/v1/webhooks/event-types';
const EVENTS = '/api/v1/webhooks/events';

const INVOICE_SCHEMA = {
  type: 'object',
  properties: {
    invoice_id: { type: 'string' },
    amount: { type: 'integer', minimum: 0 },
    customer: { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
  },
  required: ['invoice_id', 'amount'],
};

/** `{"$ref":"#/$defs/d0"}` where each d<i> is allOf two $refs to d<i+1>: 2^levels checks of the last one per value. */
function fanOut(levels: number, last: Record<string, unknown> = { type: 'object' }): Record<string, unknown> {
  const defs: Record<string, unknown> = { [`d${levels}`]: last };
  for (let i = 0; i < levels; i++) defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  return { $defs: defs, $ref: '#/$defs/d0' };
}

/**
 * The event-type catalog (docs/event-types.md) on the real stack: CRUD scoped to the key's account, its caps, and ingest
 * checking `data` against a type's schema, in this process at once and in another API process once it has read the
 * cache-invalidations log. The caches of `here` age on a clock the test moves, so only the log can drop an entry.
 */
describe('event-type catalog', () => {
  let here: Platform;
  let elsewhere: Platform;
  const clock = fakeClock(Date.now());

  beforeAll(async () => {
    here = await startTestPlatform({ roles: { api: true, worker: false }, clock: clock.now });
    elsewhere = await startTestPlatform({ sameAs: here, roles: { api: true, worker: false } });
  });
  afterAll(async () => {
    await elsewhere?.stop();
    await here?.stop();
  });

  const later = async (ms: number) => invalidationsReadFrom(here, clock.advance(ms));

  it('creates, lists by name with cursors, gets, patches and deletes a type; a duplicate name is 409', async () => {
    const api = apiClient(here, (await createAccountWithKey(here)).key);
    const created = await api.post(TYPES, { name: 'invoice.paid', description: 'An invoice was paid.', schema: INVOICE_SCHEMA, example: { invoice_id: 'in_1', amount: 5 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'invoice.paid', description: 'An invoice was paid.', schema: INVOICE_SCHEMA, example: { invoice_id: 'in_1', amount: 5 } });
    const duplicate = await api.post(TYPES, { name: 'invoice.paid' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('event_type_exists');
    for (const name of ['a.created', 'z.deleted']) expect((await api.post(TYPES, { name })).status).toBe(201);

    const first = await api.get(`${TYPES}?limit=2`);
    expect(first.body.data.map((t: { name: string }) => t.name)).toEqual(['a.created', 'invoice.paid']);
    const second = await api.get(`${TYPES}?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body).toMatchObject({ data: [{ name: 'z.deleted', schema: null, example: null, description: '' }], next_cursor: null });

    expect((await api.get(`${TYPES}/invoice.paid`)).body).toEqual(created.body);
    const patched = await api.patch(`${TYPES}/invoice.paid`, { description: 'Paid.', example: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ description: 'Paid.', schema: INVOICE_SCHEMA, example: null });

    expect((await api.delete(`${TYPES}/z.deleted`)).status).toBe(204);
    expect((await api.get(`${TYPES}/z.deleted`)).status).toBe(404);
    expect((await api.delete(`${TYPES}/z.deleted`)).status).toBe(404);
  });

  it('documents that a PATCH takes null for the schema or the example (it removes them), and a create too', async () => {
    const { schemas } = (await apiClient(here).get('/openapi.json')).body.components;
    for (const request of ['CreateEventTypeRequest', 'UpdateEventTypeRequest']) {
      for (const field of ['schema', 'example']) expect([request, field, schemas[request].properties[field].type]).toEqual([request, field, ['object', 'null']]);
    }
  });

  it('refuses an invalid schema, an example that does not match, a reserved or malformed name, and an oversized schema, storing nothing', async () => {
    const api = apiClient(here, (await createAccountWithKey(here)).key);
    const invalid = await api.post(TYPES, { name: 'x.y', schema: { type: 'objekt' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.code).toBe('invalid_schema');
    expect(invalid.body.details[0].path).toMatch(/^schema/);
    const unknownKeyword = await api.post(TYPES, { name: 'x.y', schema: { type: 'object', propertise: {} } });
    expect(unknownKeyword.body.code).toBe('invalid_schema');
    const otherDraft = await api.post(TYPES, { name: 'x.y', schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' } });
    expect(otherDraft.status).toBe(422);
    expect(otherDraft.body.code).toBe('invalid_schema');

    const example = await api.post(TYPES, { name: 'x.y', schema: INVOICE_SCHEMA, example: { invoice_id: 1, amount: 5 } });
    expect(example.status).toBe(422);
    expect(example.body).toMatchObject({ code: 'invalid_example', details: [{ path: 'example.invoice_id' }] });

    expect((await api.post(TYPES, { name: 'platform.endpoint.disabled' })).body.code).toBe('reserved_event_type');
    expect((await api.post(TYPES, { name: 'order.*' })).status).toBe(400);
    for (const name of ['.', '..']) expect((await api.post(TYPES, { name })).body).toMatchObject({ code: 'invalid_request', details: [{ path: 'name' }] });
    const big = { type: 'object', description: 'x'.repeat(MAX_EVENT_TYPE_SCHEMA_BYTES) };
    const oversized = await api.post(TYPES, { name: 'x.y', schema: big });
    expect(oversized.status).toBe(400);
    expect(oversized.body.details[0].path).toBe('schema');
    expect((await api.get(TYPES)).body.data).toEqual([]);

    expect((await api.post(TYPES, { name: 'x.y', schema: INVOICE_SCHEMA, example: { invoice_id: 'in_1', amount: 1 } })).status).toBe(201);
    // The record after a PATCH must hold together: a schema its example does not match is refused.
    const patch = await api.patch(`${TYPES}/x.y`, { schema: { type: 'object', required: ['other'] } });
    expect(patch.body).toMatchObject({ code: 'invalid_example', details: [{ path: 'example.other' }] });
  });

  it("scopes types to the key's account: another account's type is 404 and its schema does not apply", async () => {
    const owner = apiClient(here, (await createAccountWithKey(here)).key);
    const other = apiClient(here, (await createAccountWithKey(here)).key);
    expect((await owner.post(TYPES, { name: 'invoice.paid', schema: INVOICE_SCHEMA })).status).toBe(201);
    expect((await other.get(`${TYPES}/invoice.paid`)).status).toBe(404);
    expect((await other.patch(`${TYPES}/invoice.paid`, { description: 'mine' })).status).toBe(404);
    expect((await other.delete(`${TYPES}/invoice.paid`)).status).toBe(404);
    expect((await other.get(TYPES)).body.data).toEqual([]);
    expect((await other.post(EVENTS, { type: 'invoice.paid', data: {} })).status).toBe(202);
    // The other account may register the same name.
    expect((await other.post(TYPES, { name: 'invoice.paid' })).status).toBe(201);
  });

  it(`holds at most ${MAX_EVENT_TYPES_PER_ACCOUNT} types per account, and a delete frees a place`, async () => {
    const { key, accountId } = await createAccountWithKey(here);
    const api = apiClient(here, key);
    // The account's counters as a release before the catalog left them: a document without an event_types counter.
    await here.services.endpoints.create(accountId, { url: 'https://127.0.0.1:1/hook' });
    await here.db.collection<{ _id: string }>('account_counts').updateOne({ _id: accountId }, { $unset: { event_types: '' } });
    // Concurrent creates, 10 past the cap: exactly the cap is stored.
    const names = Array.from({ length: MAX_EVENT_TYPES_PER_ACCOUNT + 10 }, (_, i) => `t.${String(i).padStart(3, '0')}`);
    const refusals: unknown[] = [];
    for (let i = 0; i < names.length; i += 30) {
      const outcomes = await Promise.allSettled(names.slice(i, i + 30).map((name) => here.services.eventTypes.create(accountId, { name })));
      for (const outcome of outcomes) if (outcome.status === 'rejected') refusals.push(outcome.reason);
    }
    expect(refusals).toHaveLength(10);
    expect(refusals.every((err) => (err as { code?: string }).code === 'event_type_limit_reached')).toBe(true);
    const over = await api.post(TYPES, { name: 't.over' });
    expect(over.status).toBe(422);
    expect(over.body.code).toBe('event_type_limit_reached');
    expect((await api.delete(`${TYPES}/t.000`)).status).toBe(204);
    expect((await api.post(TYPES, { name: 't.over' })).status).toBe(201);
  });

  /** Holds `platform`'s next write of a PATCH (after its read and its check) while `meanwhile` runs; answers the held PATCH's answer. */
  async function patchHeldWhile(platform: Platform, key: string, name: string, body: object, meanwhile: () => Promise<unknown>) {
    const gate = holdMethod(platform.repositories.eventTypes, 'update');
    try {
      const patch = apiClient(platform, key).patch(`${TYPES}/${name}`, body);
      await gate.reached;
      await meanwhile();
      gate.open();
      return await patch;
    } finally {
      gate.restore();
    }
  }

  it('changes only the fields a PATCH names: PATCHes of different fields at once both keep their change', async () => {
    const { key, accountId } = await createAccountWithKey(here);
    const api = apiClient(here, key);
    expect((await api.post(TYPES, { name: 'order.paid', description: 'Paid.', example: { a: 1 } })).status).toBe(201);
    // This process's PATCH of the description has read the record; another process changes the example before it writes.
    const described = await patchHeldWhile(here, key, 'order.paid', { description: 'An order was paid.' }, () =>
      elsewhere.services.eventTypes.update(accountId, 'order.paid', { example: { b: 1 } }),
    );
    expect(described.status).toBe(200);
    expect(described.body).toMatchObject({ description: 'An order was paid.', example: { b: 1 } });
    // And the other way round: an example written after another process changed the description and the schema.
    const exampled = await patchHeldWhile(here, key, 'order.paid', { example: { c: 1 } }, () =>
      elsewhere.services.eventTypes.update(accountId, 'order.paid', { description: 'Paid in full.' }),
    );
    expect(exampled.status).toBe(200);
    expect((await api.get(`${TYPES}/order.paid`)).body).toMatchObject({ description: 'Paid in full.', schema: null, example: { c: 1 } });
  });

  it('writes a new schema only against the example it was checked against, and a new example only against the schema: else 409 event_type_changed, nothing changed', async () => {
    const { key, accountId } = await createAccountWithKey(here);
    const api = apiClient(here, key);
    expect((await api.post(TYPES, { name: 'order.paid', example: { a: 1 } })).status).toBe(201);
    // The held PATCH checked its schema against example {a: 1}; another process makes it {b: 1}, which the schema refuses.
    const schema = await patchHeldWhile(here, key, 'order.paid', { schema: { type: 'object', required: ['a'] } }, () =>
      elsewhere.services.eventTypes.update(accountId, 'order.paid', { example: { b: 1 } }),
    );
    expect(schema.status).toBe(409);
    expect(schema.body.code).toBe('event_type_changed');
    expect((await api.get(`${TYPES}/order.paid`)).body).toMatchObject({ schema: null, example: { b: 1 } });
    // The held PATCH checked its example against no schema; another process sets one that the example does not match.
    const example = await patchHeldWhile(here, key, 'order.paid', { example: { c: 1 } }, () =>
      elsewhere.services.eventTypes.update(accountId, 'order.paid', { schema: { type: 'object', required: ['b'] } }),
    );
    expect(example.status).toBe(409);
    expect(example.body.code).toBe('event_type_changed');
    expect((await api.get(`${TYPES}/order.paid`)).body).toMatchObject({ schema: { type: 'object', required: ['b'] }, example: { b: 1 } });
    // Deleted meanwhile: 404.
    const deleted = await patchHeldWhile(here, key, 'order.paid', { description: 'x' }, () => elsewhere.services.eventTypes.delete(accountId, 'order.paid'));
    expect(deleted.status).toBe(404);
  });

  it('stores any JSON Schema and example as given: keys with `$` or `.`, nested arrays, key order', async () => {
    const api = apiClient(here, (await createAccountWithKey(here)).key);
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/order.json',
      $defs: { sku: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' } },
      type: 'object',
      properties: { 'line.items': { type: 'array', items: { $ref: '#/$defs/sku' } }, grid: { type: 'array', items: { type: 'array' } } },
      required: ['line.items'],
    };
    const example = { 'line.items': ['ABC-1'], grid: [[1, 2], [3]], $meta: { z: 1, a: 2 } };
    const created = await api.post(TYPES, { name: 'order.placed', schema, example });
    expect(created.status).toBe(201);
    const read = await api.get(`${TYPES}/order.placed`);
    expect(read.body).toMatchObject({ schema, example });
    expect(Object.keys(read.body.example.$meta)).toEqual(['z', 'a']);
    expect((await api.post(EVENTS, { type: 'order.placed', data: { 'line.items': ['abc'] } })).body).toMatchObject({
      code: 'schema_mismatch',
      details: [{ path: 'data.line.items.0' }],
    });
    expect((await api.post(EVENTS, { type: 'order.placed', data: { 'line.items': ['ABC-12'] } })).status).toBe(202);

    const changed = { ...schema, $defs: { sku: { type: 'string', $comment: 'any sku' } } };
    const patched = await api.patch(`${TYPES}/order.placed`, { schema: changed, example: { 'line.items': ['x'], 'a.b': [[{ $c: 1 }]] } });
    expect(patched.status).toBe(200);
    expect((await api.get(TYPES)).body.data).toEqual([patched.body]);
    expect(patched.body).toMatchObject({ schema: changed, example: { 'line.items': ['x'], 'a.b': [[{ $c: 1 }]] } });
    expect((await api.post(EVENTS, { type: 'order.placed', data: { 'line.items': ['abc'] } })).status).toBe(202);
  });

  it("keeps an example's numbers as sent, those a double cannot hold too, through a create and a PATCH of its schema", async () => {
    const { key } = await createAccountWithKey(here);
    const api = apiClient(here, key);
    const example = '{"invoice_id":"in_1","amount":9007199254740993}';
    expect((await api.post(TYPES, `{"name":"invoice.big","schema":${JSON.stringify(INVOICE_SCHEMA)},"example":${example}}`)).status).toBe(201);
    const shown = async () => (await fetch(`${here.apiUrl}${TYPES}/invoice.big`, { headers: { Authorization: `Bearer ${key}` } })).text();
    expect(await shown()).toContain(`"example":${example}`);
    // A new schema is written only against the example it was checked against, compared as stored.
    const patched = await api.patch(`${TYPES}/invoice.big`, { schema: { ...INVOICE_SCHEMA, description: 'invoices' } });
    expect(patched.status).toBe(200);
    expect(await shown()).toContain(`"example":${example}`);
  });

  it('refuses data that does not match its type\'s schema with 422 schema_mismatch and the failing paths, storing no event and no idempotency record', async () => {
    const api = apiClient(here, (await createAccountWithKey(here)).key);
    expect((await api.post(TYPES, { name: 'invoice.paid', schema: INVOICE_SCHEMA })).status).toBe(201);
    const refused = await api.post(EVENTS, { type: 'invoice.paid', data: { amount: -1, customer: {} } }, { 'Idempotency-Key': 'inv-1' });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('schema_mismatch');
    expect(refused.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['data.amount', 'data.customer.email', 'data.invoice_id']);
    expect((await api.get(EVENTS)).body.data).toEqual([]);

    // No idempotency record was kept: the same key with fixed data is a new event (202), not a repeat.
    const fixed = await api.post(EVENTS, { type: 'invoice.paid', data: { invoice_id: 'in_1', amount: 5 } }, { 'Idempotency-Key': 'inv-1' });
    expect(fixed.status).toBe(202);
    expect((await api.get(EVENTS)).body.data.map((e: { id: number }) => e.id)).toEqual([fixed.body.id]);
    // A type without an entry is accepted as before.
    expect((await api.post(EVENTS, { type: 'invoice.voided', data: { anything: true } })).status).toBe(202);
  });

  it('refuses a schema whose compile and loop probes outlast their deadline with 422 invalid_schema, storing nothing', async () => {
    const api = apiClient(here, (await createAccountWithKey(here)).key);
    // 1.2 KB: 2^30 checks of the last definition for each probe value, hours on the API's event loop if run there.
    const refused = await api.post(TYPES, { name: 'order.fanned', schema: fanOut(30) });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'invalid_schema', details: [{ path: 'schema', message: expect.stringContaining('too costly to check events against') }] });
    expect((await api.get(`${TYPES}/order.fanned`)).status).toBe(404);
  });

  it('refuses an event whose check against its schema outlasts the deadline with 422 schema_mismatch, storing nothing', async () => {
    const api = apiClient(here, (await createAccountWithKey(here)).key);
    // Cheap to register (no probe value has keys); 2^14 × 100 pattern tests for each key of the event's data.
    const patterns = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`^k${i}(a|b)*c$`, {}]));
    expect((await api.post(TYPES, { name: 'order.costly', schema: fanOut(14, { type: 'object', patternProperties: patterns }) })).status).toBe(201);
    const data = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}ababab`, 0]));
    const refused = await api.post(EVENTS, { type: 'order.costly', data });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'schema_mismatch', details: [{ path: 'data', message: expect.stringContaining('could not be checked against the schema within 1 s') }] });
    expect((await api.get(EVENTS)).body.data).toEqual([]);
    expect((await api.post(EVENTS, { type: 'order.costly', data: {} })).status).toBe(202);
  });

  it('applies a schema change to the next ingest in the same process, and a PATCH replaces a schema or an example whole', async () => {
    const api = apiClient(here, (await createAccountWithKey(here)).key);
    expect((await api.post(TYPES, { name: 'order.paid' })).status).toBe(201);
    expect((await api.post(EVENTS, { type: 'order.paid', data: {} }, { 'Idempotency-Key': 'paid-1' })).status).toBe(202);
    expect((await api.patch(`${TYPES}/order.paid`, { schema: { type: 'object', required: ['order_id'] } })).status).toBe(200);
    expect((await api.post(EVENTS, { type: 'order.paid', data: {} })).body).toMatchObject({ code: 'schema_mismatch', details: [{ path: 'data.order_id' }] });
    // The check comes before the idempotency lookup (docs/event-types.md): a repeat whose data no longer matches is refused too.
    expect((await api.post(EVENTS, { type: 'order.paid', data: {} }, { 'Idempotency-Key': 'paid-1' })).body.code).toBe('schema_mismatch');
    // One schema replaced by another.
    expect((await api.patch(`${TYPES}/order.paid`, { schema: { required: ['other'] } })).body.schema).toEqual({ required: ['other'] });
    expect((await api.post(EVENTS, { type: 'order.paid', data: { order_id: 1 } })).body).toMatchObject({ code: 'schema_mismatch', details: [{ path: 'data.other' }] });
    expect((await api.patch(`${TYPES}/order.paid`, { schema: null })).status).toBe(200);
    expect((await api.post(EVENTS, { type: 'order.paid', data: {} })).status).toBe(202);
    // An example replaced by one of other keys.
    expect((await api.patch(`${TYPES}/order.paid`, { example: { a: 1 } })).status).toBe(200);
    expect((await api.patch(`${TYPES}/order.paid`, { example: { b: 1 } })).status).toBe(200);
    expect((await api.get(`${TYPES}/order.paid`)).body.example).toEqual({ b: 1 });
  });

  it('checks a type deleted and created again against its new schema, though its version starts again at 1', async () => {
    const api = apiClient(here, (await createAccountWithKey(here)).key);
    expect((await api.post(TYPES, { name: 'order.paid', schema: { type: 'object', required: ['a'] } })).status).toBe(201);
    expect((await api.post(EVENTS, { type: 'order.paid', data: { a: 1 } })).status).toBe(202);
    expect((await api.delete(`${TYPES}/order.paid`)).status).toBe(204);
    const schema = { type: 'object', properties: { b: {} }, required: ['b'], additionalProperties: false };
    expect((await api.post(TYPES, { name: 'order.paid', schema })).status).toBe(201);
    expect((await api.post(EVENTS, { type: 'order.paid', data: { b: 1 } })).status).toBe(202);
    expect((await api.post(EVENTS, { type: 'order.paid', data: { a: 1 } })).body).toMatchObject({ code: 'schema_mismatch' });
  });

  it("applies a schema set in another process to this one's next ingest once this one has read the log, never by a catalog read per ingest", async () => {
    const { key, accountId } = await createAccountWithKey(here);
    const api = apiClient(here, key);
    expect((await api.post(EVENTS, { type: 'order.shipped', data: {} })).status).toBe(202); // the account's (empty) catalog is cached here
    const reads: string[] = [];
    const count = (e: { commandName: string; command: Record<string, unknown> }) => {
      if (e.command[e.commandName] === 'event_types') reads.push(e.commandName);
    };
    here.mongo.on('commandStarted', count);
    try {
      for (let i = 0; i < 12; i++) {
        await later(100);
        expect((await api.post(EVENTS, { type: 'order.shipped', data: {} })).status).toBe(202); // kept past its own 1 s while the log is followed
      }
    } finally {
      here.mongo.off('commandStarted', count);
    }
    expect(reads).toEqual([]);

    await elsewhere.services.eventTypes.create(accountId, { name: 'order.shipped', schema: { type: 'object', required: ['tracking'] } });
    await later(1);
    expect((await api.post(EVENTS, { type: 'order.shipped', data: {} })).body).toMatchObject({ code: 'schema_mismatch', details: [{ path: 'data.tracking' }] });

    await elsewhere.services.eventTypes.delete(accountId, 'order.shipped');
    await later(1);
    expect((await api.post(EVENTS, { type: 'order.shipped', data: {} })).status).toBe(202);
  });
});

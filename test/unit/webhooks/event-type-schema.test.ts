import { compileDataSchema, MAX_SCHEMA_ERROR_DETAILS, MAX_UNIQUE_ITEMS } from '../../../src/domain/webhooks/event-type-schema';
import { checkEventTypeName } from '../../../src/domain/webhooks/event-type';
import { ExactNumber } from '../../../src/domain/webhooks/exact-json';

describe('event-type names', () => {
  it('takes an exact type as ingest does, and refuses patterns, bad characters and the platform prefix', () => {
    expect(checkEventTypeName('invoice.paid')).toEqual({ ok: true });
    expect(checkEventTypeName('a'.repeat(256))).toEqual({ ok: true });
    expect(checkEventTypeName('a'.repeat(257))).toMatchObject({ ok: false, reserved: false });
    expect(checkEventTypeName('order.*')).toMatchObject({ ok: false, reserved: false });
    expect(checkEventTypeName('')).toMatchObject({ ok: false, reserved: false });
    expect(checkEventTypeName('platform.endpoint.disabled')).toMatchObject({ ok: false, reserved: true });
  });
});

describe('compileDataSchema (JSON Schema draft 2020-12)', () => {
  it('compiles a schema and reports the failing paths of data that does not match, a missing property named in its path', () => {
    const compiled = compileDataSchema({
      type: 'object',
      properties: { amount: { type: 'integer' }, items: { type: 'array', items: { type: 'object', required: ['sku'] } }, 'a/b': { type: 'string' } },
      required: ['amount'],
    });
    if (!compiled.ok) throw new Error('should compile');
    expect(compiled.validate({ amount: 1, items: [{ sku: 'x' }] })).toBeNull();
    expect(compiled.validate({ items: [{ sku: 'x' }, {}], 'a/b': 1 })?.map((d) => d.path).sort()).toEqual(['data.a/b', 'data.amount', 'data.items.1.sku']);
  });

  it('checks a number kept as sent (one a double cannot hold) as the number it is', () => {
    const compiled = compileDataSchema({ type: 'object', properties: { id: { type: 'integer', minimum: 0 } } });
    if (!compiled.ok) throw new Error('should compile');
    expect(compiled.validate({ id: new ExactNumber('9007199254740993') })).toBeNull();
    expect(compiled.validate({ id: new ExactNumber('-9007199254740993') })).toEqual([{ path: 'data.id', message: 'must be >= 0' }]);
  });

  it('refuses a $ref that leads only back to itself, saying so', () => {
    const compiled = compileDataSchema({ $defs: { a: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' });
    expect(compiled).toEqual({ ok: false, details: [{ path: 'schema', message: 'has a $ref that leads only back to itself' }] });
  });

  it('compiles a recursive schema whose $ref is under a keyword', () => {
    const compiled = compileDataSchema({ $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } }, $ref: '#/$defs/node' });
    if (!compiled.ok) throw new Error('should compile');
    expect(compiled.validate({ next: { next: {} } })).toBeNull();
    expect(compiled.validate({ next: { next: 1 } })).toEqual([{ path: 'data.next.next', message: 'must be object' }]);
  });

  it('takes a schema naming the draft 2020-12 meta-schema', () => {
    const compiled = compileDataSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', required: ['a'] });
    if (!compiled.ok) throw new Error('should compile');
    expect(compiled.validate({})).toEqual([{ path: 'data.a', message: expect.stringContaining("'a'") }]);
  });

  it('uses draft 2020-12 keywords and checks formats', () => {
    const compiled = compileDataSchema({ type: 'object', properties: { pair: { prefixItems: [{ type: 'string' }, { type: 'integer' }] }, email: { format: 'email' } } });
    if (!compiled.ok) throw new Error('should compile');
    expect(compiled.validate({ pair: ['a', 1], email: 'a@example.com' })).toBeNull();
    expect(compiled.validate({ pair: ['a', 'b'], email: 'nope' })?.map((d) => d.path).sort()).toEqual(['data.email', 'data.pair.1']);
  });

  it('refuses what is not a schema, with where', () => {
    expect(compileDataSchema([])).toMatchObject({ ok: false, details: [{ path: 'schema' }] });
    expect(compileDataSchema({ type: 'objekt' })).toMatchObject({ ok: false, details: expect.arrayContaining([expect.objectContaining({ path: 'schema.type' })]) });
    expect(compileDataSchema({ properties: { a: { minimum: 'one' } } })).toMatchObject({ ok: false, details: expect.arrayContaining([expect.objectContaining({ path: 'schema.properties.a.minimum' })]) });
    // Strict mode: an unknown keyword (a typo that would accept everything) is refused.
    expect(compileDataSchema({ type: 'object', requird: ['a'] })).toMatchObject({ ok: false });
    // Another draft's meta-schema.
    expect(compileDataSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' })).toMatchObject({ ok: false, details: [{ path: 'schema' }] });
    // A reference that resolves nowhere.
    expect(compileDataSchema({ $ref: 'https://example.com/elsewhere.json' })).toMatchObject({ ok: false });
  });

  it('runs patterns with RE2 (linear time): what only a backtracking engine has, backreferences and lookarounds, is refused', () => {
    const compiled = compileDataSchema({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    if (!compiled.ok) throw new Error('should compile');
    expect(compiled.validate({ s: 'aa!' })).toEqual([{ path: 'data.s', message: expect.stringContaining('must match pattern') }]);
    expect(compiled.validate({ s: 'aaa' })).toBeNull();
    expect(compileDataSchema({ type: 'object', properties: { s: { pattern: '(a)\\1' } } })).toMatchObject({ ok: false, details: [{ path: 'schema' }] });
    expect(compileDataSchema({ type: 'object', patternProperties: { '^(?=x)': {} } })).toMatchObject({ ok: false, details: [{ path: 'schema' }] });
  });

  it(`takes uniqueItems only with a maxItems of at most ${MAX_UNIQUE_ITEMS} beside it, wherever it is`, () => {
    expect(compileDataSchema({ type: 'object', properties: { tags: { type: 'array', uniqueItems: true, maxItems: MAX_UNIQUE_ITEMS } } })).toMatchObject({ ok: true });
    expect(compileDataSchema({ type: 'object', properties: { tags: { type: 'array', uniqueItems: true } } })).toMatchObject({
      ok: false,
      details: [{ path: 'schema.properties.tags.uniqueItems' }],
    });
    expect(compileDataSchema({ prefixItems: [{ items: { uniqueItems: true, maxItems: MAX_UNIQUE_ITEMS + 1 } }] })).toMatchObject({
      ok: false,
      details: [{ path: 'schema.prefixItems.0.items.uniqueItems' }],
    });
    expect(compileDataSchema({ $defs: { a: { uniqueItems: true } }, properties: { uniqueItems: true } })).toMatchObject({ ok: false, details: [{ path: 'schema.$defs.a.uniqueItems' }] });
  });

  it('reports only the first failure of a schema with uniqueItems: collecting every failure would check uniqueItems past maxItems, in quadratic time', () => {
    const compiled = compileDataSchema({ type: 'object', properties: { a: { type: 'array', maxItems: MAX_UNIQUE_ITEMS, uniqueItems: true }, b: { type: 'string' } } });
    if (!compiled.ok) throw new Error('should compile');
    const tooMany = Array.from({ length: MAX_UNIQUE_ITEMS + 1 }, (_, i) => ({ i }));
    expect(compiled.validate({ a: tooMany, b: 1 })).toEqual([{ path: 'data.a', message: `must NOT have more than ${MAX_UNIQUE_ITEMS} items` }]);
    expect(compiled.validate({ a: [{ i: 1 }, { i: 1 }], b: 'x' })).toEqual([{ path: 'data.a', message: expect.stringContaining('duplicate') }]);
    expect(compiled.validate({ a: [{ i: 1 }, { i: 2 }], b: 'x' })).toBeNull();
  });

  it(`reports at most ${MAX_SCHEMA_ERROR_DETAILS} paths`, () => {
    const properties = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const compiled = compileDataSchema({ type: 'object', properties, required: Object.keys(properties) });
    if (!compiled.ok) throw new Error('should compile');
    expect(compiled.validate({})).toHaveLength(MAX_SCHEMA_ERROR_DETAILS);
  });

  it('compiles schemas with the same $id independently', () => {
    const a = compileDataSchema({ $id: 'https://example.com/s', type: 'object', required: ['a'] });
    const b = compileDataSchema({ $id: 'https://example.com/s', type: 'object', required: ['b'] });
    if (!a.ok || !b.ok) throw new Error('should compile');
    expect(a.validate({ b: 1 })).not.toBeNull();
    expect(b.validate({ b: 1 })).toBeNull();
  });
});

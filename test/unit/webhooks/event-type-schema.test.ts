import { compileDataSchema, MAX_SCHEMA_ERROR_DETAILS, MAX_SCHEMA_PATTERNS, MAX_UNIQUE_ITEMS } from '../../../src/domain/webhooks/event-type-schema';
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
    expect(compiled).toEqual({ ok: false, details: [{ path: 'schema', message: expect.stringContaining('an endless loop') }] });
  });

  it('refuses a schema whose references lead back to it without going into the data, for a value of any type (checking it would never end)', () => {
    const loops: unknown[] = [
      { $ref: '#' },
      { anyOf: [{ type: 'string' }, { $ref: '#' }] },
      { $dynamicAnchor: 'm', $dynamicRef: '#m' },
      { $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { not: { $ref: '#/$defs/a' } } }, $ref: '#/$defs/a' },
      { if: { type: 'integer' }, then: { $ref: '#' } },
      { anyOf: [{ type: 'string' }, { $recursiveRef: '#' }] },
      // Ajv's dynamic reference without a matching anchor calls the schema it is compiled in.
      { $defs: { t: { anyOf: [{ type: 'string' }, { $dynamicRef: '#nowhere' }] } }, $ref: '#/$defs/t' },
    ];
    for (const schema of loops) {
      expect([schema, compileDataSchema(schema)]).toEqual([schema, { ok: false, details: [{ path: 'schema', message: 'has a $ref that can lead back to the same schema without going into the data (an endless loop)' }] }]);
    }
  });

  it('answers data on which a schema loops only there (a property it names) with a refusal, never a throw', () => {
    const compiled = compileDataSchema({ dependentSchemas: { a: { $ref: '#' } } });
    if (!compiled.ok) throw new Error('should compile');
    expect(compiled.validate({ b: 1 })).toBeNull();
    expect(compiled.validate({ a: 1 })).toEqual([{ path: 'data', message: 'could not be checked: the schema recursed too deeply on this data' }]);
  });

  it('keeps a recursive schema that goes into the data at each turn', () => {
    const trees = [
      { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } },
      { $dynamicAnchor: 'node', type: 'object', properties: { children: { type: 'array', items: { $dynamicRef: '#node' } } } },
      { $defs: { n: { anyOf: [{ type: 'integer' }, { type: 'array', items: { $ref: '#/$defs/n' } }] } }, $ref: '#/$defs/n' },
    ];
    for (const tree of trees) {
      const compiled = compileDataSchema(tree);
      if (!compiled.ok) throw new Error(`should compile: ${JSON.stringify(compiled.details)}`);
    }
    const compiled = compileDataSchema(trees[0]);
    if (!compiled.ok) throw new Error('should compile');
    expect(compiled.validate({ children: [{ children: [] }, { children: [{}] }] })).toBeNull();
    expect(compiled.validate({ children: [{ children: [1] }] })).toEqual([{ path: 'data.children.0.children.0', message: 'must be object' }]);
  });

  it('refuses data it cannot check for the stack running out, never throwing', () => {
    const compiled = compileDataSchema({ type: 'object', properties: { next: { $ref: '#' } } });
    if (!compiled.ok) throw new Error('should compile');
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    expect(compiled.validate(deep)).toEqual([{ path: 'data', message: expect.stringContaining('recursed too deeply') }]);
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
    expect(compileDataSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' })).toEqual({
      ok: false,
      details: [{ path: 'schema.$schema', message: 'must be draft 2020-12 (https://json-schema.org/draft/2020-12/schema) or omitted' }],
    });
    // Ajv's `nullable` (OpenAPI's) is not JSON Schema's: an unknown keyword.
    expect(compileDataSchema({ type: 'string', nullable: true })).toMatchObject({ ok: false, details: [{ path: 'schema', message: expect.stringContaining('nullable') }] });
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

  it('compiles patterns as often as schemas come: compiled patterns are not kept in a heap that fills up for the whole process', () => {
    // 100 large patterns a schema: a WASM build of RE2 with its fixed 16 MiB heap refused every pattern after the third such schema.
    const schema = { type: 'object', properties: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, { type: 'string', pattern: `^[a-z]{1000}${i}$` }])) };
    for (let i = 0; i < 10; i++) expect(compileDataSchema(schema)).toMatchObject({ ok: true });
    const compiled = compileDataSchema({ properties: { s: { pattern: '^a+$' } } });
    if (!compiled.ok) throw new Error('should compile');
    expect(compiled.validate({ s: 'ab' })).toEqual([{ path: 'data.s', message: expect.stringContaining('must match pattern') }]);
  });

  it(`takes at most ${MAX_SCHEMA_PATTERNS} patterns a schema, patternProperties keys counted, wherever they are`, () => {
    const patternProperties = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`^k${i}$`, { type: 'integer' }]));
    expect(compileDataSchema({ type: 'object', patternProperties: patternProperties(MAX_SCHEMA_PATTERNS) })).toMatchObject({ ok: true });
    // Nearly 2,000 of them fit in 16 KiB: checking data then overflowed the stack, refused as a loop there was not.
    expect(compileDataSchema({ type: 'object', patternProperties: patternProperties(1_965) })).toEqual({
      ok: false,
      details: [{ path: 'schema', message: `has 1965 patterns ("pattern" and "patternProperties" keys); at most ${MAX_SCHEMA_PATTERNS}` }],
    });
    const oneMore = { $defs: { a: { const: { pattern: 'x' } } }, patternProperties: patternProperties(MAX_SCHEMA_PATTERNS) };
    expect(compileDataSchema(oneMore)).toMatchObject({ ok: false, details: [{ path: 'schema', message: expect.stringContaining('has 101 patterns') }] });
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
    // Anywhere: a `$ref` may make any object of the document a schema, a map of properties too.
    expect(compileDataSchema({ $defs: { a: { uniqueItems: true } }, properties: { uniqueItems: true } })).toMatchObject({
      ok: false,
      details: [{ path: 'schema.$defs.a.uniqueItems' }, { path: 'schema.properties.uniqueItems' }],
    });
    expect(compileDataSchema({ dependencies: { a: { properties: { b: { uniqueItems: true } } } } })).toMatchObject({
      ok: false,
      details: [{ path: 'schema.dependencies.a.properties.b.uniqueItems' }],
    });
    expect(compileDataSchema({ $defs: { a: { const: { properties: { b: { uniqueItems: true } } } } }, $ref: '#/$defs/a/const' })).toMatchObject({
      ok: false,
      details: [{ path: 'schema.$defs.a.const.properties.b.uniqueItems' }],
    });
  });

  it('refuses a schema naming the property __proto__, which the validator would read as the prototype and not check', () => {
    const schemas = [
      '{"type":"object","properties":{"__proto__":{"type":"object"}},"required":["__proto__"]}',
      '{"required":["__proto__"]}',
      '{"dependentRequired":{"a":["__proto__"]}}',
      '{"dependentSchemas":{"__proto__":{"required":["a"]}}}',
    ];
    for (const text of schemas) {
      expect([text, compileDataSchema(JSON.parse(text))]).toEqual([text, { ok: false, details: [{ path: expect.stringMatching(/^schema\./), message: expect.stringContaining('"__proto__"') }] }]);
    }
  });

  it('compiles and checks a schema referring many times to one large definition (compiled once, not inlined at each $ref)', () => {
    const definition = { type: 'object', properties: Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    const schema = { type: 'object', $defs: { a: definition }, properties: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`r${i}`, { $ref: '#/$defs/a' }])) };
    const compiled = compileDataSchema(schema);
    if (!compiled.ok) throw new Error('should compile');
    expect(compiled.validate({ r0: { p0: 'x' }, r59: { p149: 1 } })).toEqual([{ path: 'data.r59.p149', message: 'must be string' }]);
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

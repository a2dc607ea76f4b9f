import fc from 'fast-check';

/** A JSON Schema as the OpenAPI document writes it (3.1: `type` may be a list). */
type Schema = Record<string, any>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema: Schema }>; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
}

/** Values no field expects: empty, huge, control and lone-surrogate text, operator-looking keys, numbers at the edges. */
const WEIRD = fc.oneof(
  fc.constantFrom<unknown>('', ' ', 'a'.repeat(10_001), '\u0000', '\ud800', '../..', '%00', '$where', '{"$gt":""}', '__proto__', 'constructor', -1, 0, 1e308, 2 ** 53 + 2, -0.5, true, null, [], {}),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/**
 * Arbitrary values for a schema of the document: mostly of its shape (valid strings from its patterns, numbers in and
 * just past its bounds, optional and unknown properties), sometimes anything at all, and for the names in `plausible`
 * the values that reach deeper than random text would (a receiver's URL, a catalogued event type).
 */
export function arbitraryFor(schema: Schema | undefined, doc: OpenApiDocument, plausible: Record<string, unknown[]>, name?: string, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 8) return fc.constant(null);
  if (schema.$ref) return arbitraryFor(doc.components.schemas[String(schema.$ref).split('/').pop()!], doc, plausible, name, depth);
  const shaped = shapedFor(schema, doc, plausible, depth);
  // An enum's values are its plausible ones (a destination's `type` is not an event's).
  const known = name !== undefined && !schema.enum ? plausible[name] : undefined;
  return fc.oneof({ arbitrary: shaped, weight: known ? 2 : 20 }, { arbitrary: known ? fc.constantFrom(...known) : shaped, weight: known ? 18 : 0 }, { arbitrary: WEIRD, weight: 1 });
}

function shapedFor(schema: Schema, doc: OpenApiDocument, plausible: Record<string, unknown[]>, depth: number): fc.Arbitrary<unknown> {
  const alternatives = schema.oneOf ?? schema.anyOf ?? schema.allOf;
  if (alternatives) return fc.oneof(...alternatives.map((s: Schema) => arbitraryFor(s, doc, plausible, undefined, depth + 1)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'object'];
  return fc.oneof(...types.map((type) => ofType(type, schema, doc, plausible, depth)));
}

function ofType(type: string, schema: Schema, doc: OpenApiDocument, plausible: Record<string, unknown[]>, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e6;
      const max = schema.maximum ?? schema.exclusiveMaximum ?? 1e6;
      const inRange = type === 'integer' ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
      return fc.oneof({ arbitrary: inRange, weight: 9 }, { arbitrary: fc.constantFrom(min - 1, max + 1, min + 0.5), weight: 1 });
    }
    case 'string': {
      if (schema.format === 'date-time') return fc.date({ min: new Date(Date.now() - 30 * 86_400_000), max: new Date(Date.now() + 86_400_000), noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min((schema.maxLength ?? 30) + 1, 300) });
    }
    case 'array':
      return fc.array(arbitraryFor(schema.items, doc, plausible, undefined, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min((schema.maxItems ?? 4) + 1, 12) });
    default: {
      const properties = Object.entries<Schema>(schema.properties ?? {});
      const record = fc.record(Object.fromEntries(properties.map(([key, s]) => [key, arbitraryFor(s, doc, plausible, key, depth + 1)])), { requiredKeys: schema.required ?? [] });
      const unknownKey = fc.oneof({ arbitrary: fc.constant(null), weight: 19 }, { arbitrary: fc.tuple(fc.constantFrom('extra', '__proto__', '$set', 'a.b', ''), WEIRD), weight: 1 });
      return fc.tuple(record, unknownKey).map(([value, extra]) => (extra ? { ...value, [extra[0]]: extra[1] } : value));
    }
  }
}

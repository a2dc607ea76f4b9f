import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { RE2 } from 're2-wasm';
import type { ErrorDetail } from '../errors';
import { withNearestDoubles } from './exact-json';

/** At most this many failing paths are reported: enough to fix the data, and the error body stays small. */
export const MAX_SCHEMA_ERROR_DETAILS = 20;

/** Checks an event's `data`: null when it matches, else the failing paths (`data.<property>...`, as `details` names fields). */
export type DataValidator = (data: unknown) => ErrorDetail[] | null;

export type SchemaCompilation = { ok: true; validate: DataValidator } | { ok: false; details: ErrorDetail[] };

/** Unknown keywords are refused (nearly always typos that would silently accept everything); Ajv's other strict checks
 * (a `required` property not under `properties`, keywords without their `type`) would refuse valid, common schemas. */
const OPTIONS = {
  strict: true,
  strictRequired: false,
  strictTypes: false,
  strictTuples: false,
  validateFormats: true,
  // A schema's `pattern`s run on every ingest of its type: RE2 runs in time linear in the string, where a backtracking
  // pattern such as `^(a+)+$` could hold the API process for minutes on one event. Patterns RE2 lacks (backreferences,
  // lookarounds) are refused at registration.
  code: { regExp: Object.assign((pattern: string, flags: string) => new RE2(pattern, flags), { code: 'new (require("re2-wasm").RE2)' }) },
} as const;

/** Checks schemas against the draft 2020-12 meta-schema, compiled once: checking adds nothing to it, so it can be shared. */
let metaSchemaChecker: Ajv2020 | undefined;

/**
 * Compiles a JSON Schema (draft 2020-12) for events' `data`. Each schema gets a fresh Ajv (its meta-schema check left to
 * the shared checker): Ajv keeps every schema it compiled, and refuses a second with the same `$id`, so a shared one would
 * grow with every version ever registered.
 */
export function compileDataSchema(schema: unknown): SchemaCompilation {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { ok: false, details: [{ path: 'schema', message: 'must be a JSON Schema object' }] };
  }
  let firstFailure: ValidateFunction;
  let everyFailure: ValidateFunction | null;
  try {
    metaSchemaChecker ??= addFormats(new Ajv2020(OPTIONS));
    if (!metaSchemaChecker.validateSchema(schema)) return { ok: false, details: detailsOf(metaSchemaChecker.errors, 'schema') };
    const uniqueItems = uniqueItemsIn(schema, ['schema']);
    const unbounded = uniqueItems.filter((u) => !u.bounded).map((u) => u.detail);
    if (unbounded.length > 0) return { ok: false, details: unbounded.slice(0, MAX_SCHEMA_ERROR_DETAILS) };
    const compile = (allErrors: boolean) => addFormats(new Ajv2020({ ...OPTIONS, allErrors, validateSchema: false })).compile(schema);
    firstFailure = compile(false);
    // Collecting every failure checks `uniqueItems` even on an array already over its `maxItems`, in quadratic time: such a schema reports its first.
    everyFailure = uniqueItems.length === 0 ? compile(true) : null;
  } catch (err) {
    // An unknown keyword, a `$ref` that resolves nowhere, a `$schema` of another draft; compiling a `$ref` that only
    // leads back to itself recurses until the stack runs out.
    const message = err instanceof RangeError ? 'has a $ref that leads only back to itself' : err instanceof Error ? err.message : String(err);
    return { ok: false, details: [{ path: 'schema', message }] };
  }
  return {
    ok: true,
    validate: (sent) => {
      const data = withNearestDoubles(sent);
      if (firstFailure(data)) return null;
      if (everyFailure && !everyFailure(data)) return detailsOf(everyFailure.errors, 'data');
      return detailsOf(firstFailure.errors, 'data');
    },
  };
}

/** `uniqueItems` compares every pair of items that are not all strings, numbers or booleans: bounded by a `maxItems` beside it. */
export const MAX_UNIQUE_ITEMS = 1_000;

/** Draft 2020-12 keywords whose value is a schema, a list of schemas, or a map of names to schemas (strict mode refuses any other). */
const SCHEMA_KEYWORDS = ['items', 'contains', 'additionalProperties', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const SCHEMA_LIST_KEYWORDS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const SCHEMA_MAP_KEYWORDS = ['$defs', 'definitions', 'properties', 'patternProperties', 'dependentSchemas'];

/** Every subschema with `uniqueItems: true`, and whether a `maxItems` of at most MAX_UNIQUE_ITEMS beside it bounds its check. */
function uniqueItemsIn(schema: unknown, path: string[]): Array<{ bounded: boolean; detail: ErrorDetail }> {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as Record<string, unknown>;
  const found: Array<{ bounded: boolean; detail: ErrorDetail }> = [];
  if (s.uniqueItems === true) {
    const bounded = typeof s.maxItems === 'number' && s.maxItems <= MAX_UNIQUE_ITEMS;
    found.push({ bounded, detail: { path: [...path, 'uniqueItems'].join('.'), message: `needs "maxItems" of at most ${MAX_UNIQUE_ITEMS} beside it` } });
  }
  for (const keyword of SCHEMA_KEYWORDS) found.push(...uniqueItemsIn(s[keyword], [...path, keyword]));
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const list = s[keyword];
    if (Array.isArray(list)) list.forEach((sub, i) => found.push(...uniqueItemsIn(sub, [...path, keyword, String(i)])));
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = s[keyword];
    if (typeof map === 'object' && map !== null) for (const [name, sub] of Object.entries(map)) found.push(...uniqueItemsIn(sub, [...path, keyword, name]));
  }
  return found;
}

/** Ajv's errors as `details`: the JSON Pointer turned into the dotted path the API's other errors use, a missing property named in it. */
function detailsOf(errors: ErrorObject[] | null | undefined, root: string): ErrorDetail[] {
  return (errors ?? []).slice(0, MAX_SCHEMA_ERROR_DETAILS).map((error) => {
    const segments = error.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined;
    if (missing !== undefined) segments.push(missing);
    return { path: [root, ...segments].join('.'), message: error.message ?? `fails "${error.keyword}"` };
  });
}

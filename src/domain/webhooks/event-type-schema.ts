import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { RE2JS } from 're2js';
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
  // Ajv inlines a ref-free subschema at every `$ref` to it: a schema referring to one large definition many times took
  // seconds to compile, the event loop blocked. Each referenced schema is compiled once and called instead.
  inlineRefs: false,
  code: {
    // Ajv's pass over the generated code took about 3 times as long as generating it (a 16 KiB schema of 683 typed
    // properties: 490 ms against 137 ms), and validators without it checked data no slower.
    optimize: false,
    // A schema's `pattern`s run on every ingest of its type: RE2 runs in time linear in the string, where a backtracking
    // pattern such as `^(a+)+$` could hold the API process for minutes on one event. Patterns RE2 lacks (backreferences,
    // lookarounds) are refused at registration. RE2JS, RE2 in JavaScript, lives on the garbage-collected heap: a WASM build
    // of RE2 keeps every compiled pattern in a fixed heap until freed by hand, and once it is full no pattern compiles.
    // Ajv's `u` flag: RE2JS always reads patterns and strings as Unicode.
    regExp: Object.assign((pattern: string) => RE2JS.compile(pattern), { code: 'require("re2js").RE2JS.compile' }),
  },
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
  const s = schema as Record<string, unknown>;
  if ('$schema' in s && !DRAFT_2020_12.includes(s.$schema as string)) {
    return { ok: false, details: [{ path: 'schema.$schema', message: `must be draft 2020-12 (${DRAFT_2020_12[0]}) or omitted` }] };
  }
  let firstFailure: ValidateFunction;
  let everyFailure: ValidateFunction | null;
  try {
    metaSchemaChecker ??= addFormats(new Ajv2020(OPTIONS));
    if (!metaSchemaChecker.validateSchema(schema)) return { ok: false, details: detailsOf(metaSchemaChecker.errors, 'schema') };
    const proto = protoNamedIn(schema, ['schema']);
    if (proto) return { ok: false, details: [{ path: proto, message: PROTO_MESSAGE }] };
    const patterns = patternsIn(schema);
    if (patterns > MAX_SCHEMA_PATTERNS) {
      return { ok: false, details: [{ path: 'schema', message: `has ${patterns} patterns ("pattern" and "patternProperties" keys); at most ${MAX_SCHEMA_PATTERNS}` }] };
    }
    const uniqueItems = uniqueItemsIn(schema, ['schema']);
    const unbounded = uniqueItems.filter((u) => !u.bounded).map((u) => u.detail);
    if (unbounded.length > 0) return { ok: false, details: unbounded.slice(0, MAX_SCHEMA_ERROR_DETAILS) };
    const compile = (allErrors: boolean) => {
      const ajv = addFormats(new Ajv2020({ ...OPTIONS, allErrors, validateSchema: false }));
      // Ajv's own `nullable` (OpenAPI's, not JSON Schema's) would pass for a known keyword: refused as any unknown one.
      ajv.removeKeyword('nullable');
      return ajv.compile(schema);
    };
    firstFailure = compile(false);
    // Collecting every failure checks `uniqueItems` even on an array already over its `maxItems`, in quadratic time: such a schema reports its first.
    everyFailure = uniqueItems.length === 0 ? compile(true) : null;
    if ([firstFailure, everyFailure].some((validator) => validator && LOOP_PROBES.some((probe) => overflows(validator, probe)))) {
      return { ok: false, details: [{ path: 'schema', message: LOOP_MESSAGE }] };
    }
  } catch (err) {
    // An unknown keyword, a `$ref` that resolves nowhere; compiling a `$ref` that only leads back to itself recurses until the stack runs out.
    const message = err instanceof RangeError ? LOOP_MESSAGE : err instanceof Error ? err.message : String(err);
    return { ok: false, details: [{ path: 'schema', message }] };
  }
  const check = (data: unknown): ErrorDetail[] | null => {
    if (firstFailure(data)) return null;
    if (everyFailure && !everyFailure(data)) return detailsOf(everyFailure.errors, 'data');
    return detailsOf(firstFailure.errors, 'data');
  };
  return {
    ok: true,
    validate: (sent) => {
      try {
        return check(withNearestDoubles(sent));
      } catch (err) {
        // A loop the check at registration did not see (or a schema stored before it), or data nested deeper than any
        // request can send, runs out of stack: refused, never a 5xx.
        if (err instanceof RangeError) return [{ path: 'data', message: 'could not be checked: the schema recursed too deeply on this data' }];
        throw err;
      }
    },
  };
}

/**
 * A schema whose references lead back to it without going into the data (`{"$ref": "#"}`, or through `anyOf` and the
 * like) never ends a check: Ajv's validator runs out of stack. One that does so for a value of some JSON type is refused
 * here; one that does so only for some data (a property it names) is answered 422 at that ingest (`validate` below).
 */
const LOOP_PROBES: unknown[] = [{}, [], '', 0, true, null];
const LOOP_MESSAGE = 'has a $ref that can lead back to the same schema without going into the data (an endless loop)';

function overflows(validator: ValidateFunction, data: unknown): boolean {
  try {
    validator(data);
    return false;
  } catch (err) {
    if (err instanceof RangeError) return true;
    throw err;
  }
}

/** The `$schema` of draft 2020-12, as its meta-schema names itself and with the empty fragment. */
const DRAFT_2020_12 = ['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#'];

/** `uniqueItems` compares every pair of items that are not all strings, numbers or booleans: bounded by a `maxItems` beside it. */
export const MAX_UNIQUE_ITEMS = 1_000;

/**
 * Every object with `uniqueItems: true` anywhere in the schema, and whether a `maxItems` of at most MAX_UNIQUE_ITEMS
 * beside it bounds its check. Any object, not only those under schema keywords: a `$ref` may point anywhere (into a
 * `const`, say), and Ajv compiles what it finds there as a schema.
 */
function uniqueItemsIn(schema: unknown, path: string[]): Array<{ bounded: boolean; detail: ErrorDetail }> {
  const found: Array<{ bounded: boolean; detail: ErrorDetail }> = [];
  for (const { node: s, path: at } of objectsIn(schema, path)) {
    if (s.uniqueItems !== true) continue;
    const bounded = typeof s.maxItems === 'number' && s.maxItems <= MAX_UNIQUE_ITEMS;
    found.push({ bounded, detail: { path: [...at, 'uniqueItems'].join('.'), message: `needs "maxItems" of at most ${MAX_UNIQUE_ITEMS} beside it` } });
  }
  return found;
}

/** Every object (not array) in a schema document with its path, depth first: any of them may be compiled as a schema. */
function* objectsIn(value: unknown, path: string[]): Generator<{ node: Record<string, unknown>; path: string[] }> {
  if (typeof value !== 'object' || value === null) return;
  if (!Array.isArray(value)) yield { node: value as Record<string, unknown>, path };
  for (const [key, sub] of Object.entries(value)) yield* objectsIn(sub, [...path, key]);
}

/**
 * Each pattern is compiled at registration and in every API process that checks the type, and a schema's
 * `patternProperties` are tried in one chain of tests: nearly 2,000 of them fit in 16 KiB and overflowed the stack.
 */
export const MAX_SCHEMA_PATTERNS = 100;

/** How many patterns the schema holds: `pattern` strings and `patternProperties` keys in any object, as `$ref` may point anywhere. */
function patternsIn(schema: unknown): number {
  let count = 0;
  for (const { node: s } of objectsIn(schema, [])) {
    if (typeof s.pattern === 'string') count += 1;
    if (isSchemaObject(s.patternProperties)) count += Object.keys(s.patternProperties).length;
  }
  return count;
}

const PROTO_MESSAGE = 'names the property "__proto__", which the validator cannot check (it reads it as the object\'s prototype)';

/** Keywords whose values name properties of the data (`required`'s items, `dependentRequired`'s and `dependencies`' lists). */
const NAME_LIST_KEYWORDS = ['required', 'dependentRequired', 'dependencies'];

/**
 * Where the schema names a property `__proto__` (as a key anywhere, or in a list of required names), or null. Ajv's code
 * reads properties as `data.name`, and `data.__proto__` is the prototype for data without that key: `required` passes
 * and `properties` was left out, so refusing is the only way to keep such a schema from silently accepting everything.
 */
function protoNamedIn(schema: unknown, path: string[]): string | null {
  for (const { node, path: at } of objectsIn(schema, path)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '__proto__' || (NAME_LIST_KEYWORDS.includes(key) && namesProto(key, value))) return [...at, key].join('.');
    }
  }
  return null;
}

const namesProto = (keyword: string, value: unknown): boolean =>
  keyword === 'required'
    ? Array.isArray(value) && value.includes('__proto__')
    : isSchemaObject(value) && Object.values(value).some((names) => Array.isArray(names) && names.includes('__proto__'));

const isSchemaObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

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

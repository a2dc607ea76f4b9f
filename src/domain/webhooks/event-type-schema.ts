import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { RE2 } from 're2-wasm';
import type { ErrorDetail } from '../errors';

/** At most this many failing paths are reported: enough to fix the data, and the error body stays small. */
export const MAX_SCHEMA_ERROR_DETAILS = 20;

/** Checks an event's `data`: null when it matches, else the failing paths (`data.<property>...`, as `details` names fields). */
export type DataValidator = (data: unknown) => ErrorDetail[] | null;

export type SchemaCompilation = { ok: true; validate: DataValidator } | { ok: false; details: ErrorDetail[] };

/** Unknown keywords are refused (nearly always typos that would silently accept everything); Ajv's other strict checks
 * (a `required` property not under `properties`, keywords without their `type`) would refuse valid, common schemas. */
const OPTIONS = {
  allErrors: true,
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
  let compiled: ValidateFunction;
  try {
    metaSchemaChecker ??= addFormats(new Ajv2020(OPTIONS));
    if (!metaSchemaChecker.validateSchema(schema)) return { ok: false, details: detailsOf(metaSchemaChecker.errors, 'schema') };
    compiled = addFormats(new Ajv2020({ ...OPTIONS, validateSchema: false })).compile(schema);
  } catch (err) {
    // An unknown keyword, a `$ref` that resolves nowhere, a `$schema` of another draft.
    return { ok: false, details: [{ path: 'schema', message: err instanceof Error ? err.message : String(err) }] };
  }
  return { ok: true, validate: (data) => (compiled(data) ? null : detailsOf(compiled.errors, 'data')) };
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

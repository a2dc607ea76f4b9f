import { LRUCache } from 'lru-cache';
import type { MessagePort } from 'node:worker_threads';
import type { ErrorDetail } from '../domain/errors';
import { compileDataSchema, type DataValidator } from '../domain/webhooks/event-type-schema';
import { serializedBytes } from '../domain/webhooks/event-type';

/** A schema checked at registration (compiled, its example checked against it), or event data checked against a stored schema. */
export type SchemaJob =
  | { op: 'compile'; schema: Record<string, unknown>; example: Record<string, unknown> | null }
  | { op: 'check'; key: string; schema: Record<string, unknown>; data: unknown };

/** A job as a thread takes it, with the port on which it says which phase it has begun. */
export type SchemaTask = SchemaJob & { phases: MessagePort };

/** Compiling (with the loop probes) has its own deadline, checking data another: a cold thread's compile is not counted against the data. */
export type SchemaPhase = 'compile' | 'check';

/** A registration's outcome: the schema's refusal, or the example's failing paths (null: it matches, or there is none). */
export type CompileOutcome = { ok: true; exampleFailures: ErrorDetail[] | null } | { ok: false; details: ErrorDetail[] };

/** Bytes of schemas (serialized) whose validators a thread keeps; past it the least recently used go. */
const MAX_CACHED_SCHEMA_BYTES = 32 * 1024 * 1024;

/** Validators by the caller's key (account, type, version, schema hash): each compiled once per thread. */
const validators = new LRUCache<string, DataValidator>({ maxSize: MAX_CACHED_SCHEMA_BYTES });

function validatorOf(key: string, schema: Record<string, unknown>, phases: MessagePort): DataValidator {
  let validate = validators.get(key);
  if (!validate) {
    phases.postMessage('compile' satisfies SchemaPhase);
    const compiled = compileDataSchema(schema);
    // Every stored schema compiled when it was registered; one that no longer does (a validator upgrade) must not refuse every event of its type.
    validate = compiled.ok ? compiled.validate : () => null;
    validators.set(key, validate, { size: serializedBytes(schema) + 256 });
  }
  return validate;
}

/** One task on a thread of SchemaCheckPool: it says when each phase begins, so that a deadline counts that phase's work, not the task's wait in the queue. */
export default function runSchemaTask(task: SchemaTask): CompileOutcome | ErrorDetail[] | null {
  try {
    if (task.op === 'check') {
      const validate = validatorOf(task.key, task.schema, task.phases);
      task.phases.postMessage('check' satisfies SchemaPhase);
      return validate(task.data);
    }
    task.phases.postMessage('compile' satisfies SchemaPhase);
    return compileAndCheckExample(task.schema, task.example);
  } finally {
    task.phases.close();
  }
}

function compileAndCheckExample(schema: Record<string, unknown>, example: Record<string, unknown> | null): CompileOutcome {
  const compiled = compileDataSchema(schema);
  if (!compiled.ok) return compiled;
  return { ok: true, exampleFailures: example === null ? null : compiled.validate(example) };
}

import { LRUCache } from 'lru-cache';
import type { ErrorDetail } from '../domain/errors';
import { compileDataSchema, type DataValidator } from '../domain/webhooks/event-type-schema';
import { serializedBytes } from '../domain/webhooks/event-type';

/** A schema checked at registration (compiled, its example checked against it), or event data checked against a stored schema. */
export type SchemaJob =
  | { op: 'compile'; schema: Record<string, unknown>; example: Record<string, unknown> | null }
  | { op: 'check'; key: string; schema: Record<string, unknown>; data: unknown };

/**
 * A job as a thread takes it, with a shared word in which the thread writes the phase it begins and when
 * (`phaseWord`): the pool reads it to time each phase, with no message per task.
 */
export type SchemaTask = SchemaJob & { phase: BigInt64Array };

/** Compiling (with the loop probes) has its own deadline, checking data another: a cold thread's compile is not counted against the data. */
export type SchemaPhase = 'compile' | 'check';
const PHASE_CODES: Record<SchemaPhase, bigint> = { compile: 1n, check: 2n };

/** The shared word: the phase's start (ms since the epoch) times 4, plus its code; 0 while no phase has begun. */
export function phaseWord(phase: SchemaPhase, startedAt: number): bigint {
  return BigInt(startedAt) * 4n + PHASE_CODES[phase];
}

/** The phase a shared word names and when it began, or null when none has begun. */
export function readPhaseWord(word: bigint): { phase: SchemaPhase; startedAt: number } | null {
  if (word === 0n) return null;
  return { phase: (word & 3n) === PHASE_CODES.compile ? 'compile' : 'check', startedAt: Number(word >> 2n) };
}

const begin = (task: SchemaTask, phase: SchemaPhase) => Atomics.store(task.phase, 0, phaseWord(phase, Date.now()));

/** A registration's outcome: the schema's refusal, or the example's failing paths (null: it matches, or there is none). */
export type CompileOutcome = { ok: true; exampleFailures: ErrorDetail[] | null } | { ok: false; details: ErrorDetail[] };

/** Bytes of schemas (serialized) whose validators a thread keeps; past it the least recently used go. */
const MAX_CACHED_SCHEMA_BYTES = 32 * 1024 * 1024;

// As the thread starts: the draft 2020-12 meta-schema is compiled at the first schema, which the first event of a type would pay for.
compileDataSchema({});

/** Validators by the caller's key (account, type, version, schema hash): each compiled once per thread. */
const validators = new LRUCache<string, DataValidator>({ maxSize: MAX_CACHED_SCHEMA_BYTES });

function validatorOf(task: SchemaTask & { op: 'check' }): DataValidator {
  const { key, schema } = task;
  let validate = validators.get(key);
  if (!validate) {
    begin(task, 'compile');
    const compiled = compileDataSchema(schema);
    // Every stored schema compiled when it was registered; one that no longer does (a validator upgrade) must not refuse every event of its type.
    validate = compiled.ok ? compiled.validate : () => null;
    validators.set(key, validate, { size: serializedBytes(schema) + 256 });
  }
  return validate;
}

/** One task on a thread of SchemaCheckPool: it marks when each phase begins, so that a deadline counts that phase's work, not the task's wait in the queue. */
export default function runSchemaTask(task: SchemaTask): CompileOutcome | ErrorDetail[] | null {
  if (task.op === 'check') {
    const validate = validatorOf(task);
    begin(task, 'check');
    return validate(task.data);
  }
  begin(task, 'compile');
  return compileAndCheckExample(task.schema, task.example);
}

function compileAndCheckExample(schema: Record<string, unknown>, example: Record<string, unknown> | null): CompileOutcome {
  const compiled = compileDataSchema(schema);
  if (!compiled.ok) return compiled;
  return { ok: true, exampleFailures: example === null ? null : compiled.validate(example) };
}

import path from 'node:path';
import { Piscina } from 'piscina';
import type { ErrorDetail } from '../domain/errors';
import { withNearestDoubles } from '../domain/webhooks/exact-json';
import { type CompileOutcome, readPhaseWord, type SchemaJob, type SchemaPhase } from './schema-check-thread';

/** How long one event's data may take to check against its type's (compiled) schema. */
export const CHECK_DEADLINE_MS = 1_000;
/** How long a schema may take to compile and probe for loops (at registration with its example, or on a thread that has not met it). */
export const COMPILE_DEADLINE_MS = 3_000;

/** At most one thread per core, and at most two: checks take microseconds unless a schema is costly. */
const MAX_THREADS = 2;

/**
 * Event-type schemas are compiled and run on worker threads, each task with a deadline: a schema whose check costs
 * grow with its `$ref` fan-out, patterns and the data (each bounded alone, not their product) would otherwise hold the
 * API process's event loop, every account's calls with it. A task past its deadline has its thread ended (Piscina
 * ends a thread whose task is aborted) and is refused; the next task gets a new thread.
 */
export class SchemaCheckPool {
  private pool: Piscina | undefined;

  constructor(private readonly deadlines = { checkMs: CHECK_DEADLINE_MS, compileMs: COMPILE_DEADLINE_MS }) {}

  /** A schema as registered, and its example against it. Structured cloning keeps no class: an exact number goes as its nearest double, which is what a schema checks. */
  async compile(schema: Record<string, unknown>, example: Record<string, unknown> | null): Promise<CompileOutcome> {
    const asChecked = example === null ? null : (withNearestDoubles(example) as Record<string, unknown>);
    const outcome = await this.run({ op: 'compile', schema, example: asChecked });
    if (outcome instanceof PastDeadline) {
      return { ok: false, details: [{ path: 'schema', message: `took more than ${seconds(this.deadlines.compileMs)} to compile and check: too costly to check events against` }] };
    }
    return outcome as CompileOutcome;
  }

  /** Event data against a stored schema (`key` names its version): null when it matches, else the failing paths. */
  async check(key: string, schema: Record<string, unknown>, data: unknown): Promise<ErrorDetail[] | null> {
    const outcome = await this.run({ op: 'check', key, schema, data: withNearestDoubles(data) });
    if (outcome instanceof PastDeadline) {
      return [
        outcome.phase === 'check'
          ? { path: 'data', message: `could not be checked against the schema within ${seconds(this.deadlines.checkMs)}: the schema costs too much on this data` }
          : { path: 'data', message: `could not be checked: the schema took more than ${seconds(this.deadlines.compileMs)} to compile` },
      ];
    }
    return outcome as ErrorDetail[] | null;
  }

  /** Starts a thread now (the API role, at its start), so its start-up is not paid by the first events of a type with a schema; a second starts when checks queue. */
  warm(): void {
    this.threads();
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }

  /**
   * The job's outcome, or the phase past its deadline. The thread marks each phase it begins in a shared word, and the
   * deadline is counted from that mark, so a wait in the queue counts for nothing: the timer looks at the word and waits
   * again while the task has not begun or its phase has time left.
   */
  private async run(job: SchemaJob): Promise<unknown> {
    const phase = new BigInt64Array(new SharedArrayBuffer(8));
    const abort = new AbortController();
    const deadlineOf = (p: SchemaPhase) => (p === 'compile' ? this.deadlines.compileMs : this.deadlines.checkMs);
    let late: SchemaPhase | undefined;
    let timer: NodeJS.Timeout | undefined;
    const watch = () => {
      const begun = readPhaseWord(Atomics.load(phase, 0));
      const left = begun ? begun.startedAt + deadlineOf(begun.phase) - Date.now() : Math.min(this.deadlines.checkMs, this.deadlines.compileMs);
      if (begun && left <= 0) {
        late = begun.phase;
        abort.abort();
      } else {
        timer = setTimeout(watch, left);
      }
    };
    watch();
    try {
      return await this.threads().run({ ...job, phase }, { signal: abort.signal });
    } catch (err) {
      if (late) return new PastDeadline(late);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Started by warm() or at the first schema: a process that never meets one (the worker role, the cli) starts no thread. */
  private threads(): Piscina {
    this.pool ??= new Piscina({
      filename: THREAD_FILE,
      // Under tsx (npm start, tests) the thread loads TypeScript through tsx's require hook; the built image runs JavaScript.
      execArgv: THREAD_FILE.endsWith('.ts') ? ['--require', require.resolve('tsx/cjs')] : [],
      minThreads: 1,
      maxThreads: MAX_THREADS,
    });
    return this.pool;
  }
}

const THREAD_FILE = path.join(__dirname, `schema-check-thread${path.extname(__filename)}`);

class PastDeadline {
  constructor(readonly phase: SchemaPhase) {}
}

const seconds = (ms: number) => `${ms / 1000} s`;

import type { AttemptOutcome } from './delivery-activities';

/** An attempt not collected this long after it ended was abandoned by its workflow (which then made it elsewhere). */
const FORGET_AFTER_MS = 120_000;

/**
 * First attempts whose POST outlived their local budget, kept by the process that makes them until
 * their workflow collects the outcome.
 *
 * Why: a first attempt runs as a local activity inside its workflow task, so a receiver that takes
 * 25 s would hold a workflow-task slot for 25 s and make the SDK extend the task every 8 s (or, on a
 * busy machine, let it time out and be made again). Instead the local activity returns after its
 * budget with the POST still in flight here, and the workflow collects the outcome with a regular
 * activity on `taskQueue`, which only this process polls (Temporal's worker-specific task queue
 * pattern). If this process is gone, that activity is never started; the workflow then makes the
 * attempt as a regular activity, which answers from the record when the POST was recorded.
 */
export class AttemptHandOffs {
  private readonly attempts = new Map<string, Promise<AttemptOutcome>>();
  /** POSTs kept here that have not ended, collected or not (a stop waits for them, up to its deadline). */
  private readonly running = new Set<Promise<AttemptOutcome>>();

  constructor(
    /** The task queue only this process's hand-off worker polls. */
    readonly taskQueue: string,
  ) {}

  get size(): number {
    return this.attempts.size;
  }

  /** Handed-off POSTs still in flight, also those their workflow is collecting now. */
  get inFlight(): number {
    return this.running.size;
  }

  keep(key: string, outcome: Promise<AttemptOutcome>): void {
    this.attempts.set(key, outcome);
    this.running.add(outcome);
    // Settled either way; a failure is the collector's to report (or nobody's, if never collected).
    outcome.catch(() => undefined).finally(() => {
      this.running.delete(outcome);
      const forget = setTimeout(() => {
        if (this.attempts.get(key) === outcome) this.attempts.delete(key);
      }, FORGET_AFTER_MS);
      forget.unref();
    });
  }

  /** The outcome of an attempt kept here, once; undefined when this process does not have it. */
  take(key: string): Promise<AttemptOutcome> | undefined {
    const outcome = this.attempts.get(key);
    this.attempts.delete(key);
    return outcome;
  }

  /** Resolves once every POST kept here has ended, collected or not (a stop waits for it, up to its deadline). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}

import type { AttemptOutcome } from './delivery-activities';

/** An attempt not collected this long after it ended was abandoned by its workflow (which then made it elsewhere). */
const FORGET_AFTER_MS = 120_000;
/**
 * A report the server did not take is sent again (Temporal restarting) for this long after the POST
 * ended; by then the workflow has stopped waiting (45 s after the hand-off) and made the attempt again.
 */
const SIGNAL_FOR_MS = 45_000;
const SIGNAL_RETRY_MS = { first: 250, max: 5_000 };

/** One run of a delivery workflow. */
export interface WorkflowRun {
  workflowId: string;
  /** Absent: the current run of `workflowId` (the signal's round tells a later round's run to ignore it). */
  runId?: string;
}

/** What the workflow is told (the `attemptCollected` signal or `attemptOutcome` update, workflows/attempt-collected.ts). */
export interface CollectedOutcome {
  round: number;
  attempt: number;
  /** Absent when the attempt failed in the process before it was recorded: the workflow makes it again, reading the record first. */
  outcome?: AttemptOutcome;
}

/** How a run is told: by signal (`deliveryWorkflow` runs) or update (`deliveryWorkflowV2` runs). */
export type ReportBy = 'signal' | 'update';

/** Tells the run; throws RunEnded when there is nothing to tell (the run has ended, or no longer waits), anything else to be sent again. */
export type OutcomeSignaller = (run: WorkflowRun, collected: CollectedOutcome, by: ReportBy) => Promise<void>;

/** Thrown by an OutcomeSignaller when the run has ended or no longer waits: it was told, or stopped waiting. */
export class RunEnded extends Error {}

/**
 * First attempts whose POST outlived their local budget, kept by the process that makes them until
 * their workflow collects the outcome.
 *
 * Why: a first attempt runs as a local activity inside its workflow task. A slow receiver's attempt
 * keeps that task while this process has room for it (attempt-holds.ts), up to what its run allows;
 * past that, it would hold a slot it does not have, or make the SDK extend the task (or, on a busy
 * machine, let it time out and be made again). Instead the local activity returns after its
 * budget with the POST still in flight here, and the workflow collects the outcome with a regular
 * activity on `taskQueue`, which only this process polls (Temporal's worker-specific task queue
 * pattern). If this process is gone, that activity is never started; the workflow then makes the
 * attempt as a regular activity, which answers from the record when the POST was recorded.
 *
 * Workflows started since the `collect-by-signal` patch are not collected: this process reports the
 * outcome to them (`report`: by signal, or by update to `deliveryWorkflowV2` runs), which costs
 * Temporal less. The queue and `keep` stay for workflows started before it.
 */
export class AttemptHandOffs {
  private readonly attempts = new Map<string, Promise<AttemptOutcome>>();
  /** POSTs kept here, and their signals, that have not ended (a stop waits for them, up to its deadline). */
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    /** The task queue only this process's hand-off worker polls. */
    readonly taskQueue: string,
    /** Tells a workflow run the outcome of its handed-off attempt (DeliveryScheduler.reportCollected). */
    private readonly signal: OutcomeSignaller,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    private readonly now: () => number = Date.now,
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

  /**
   * Once the POST has ended (recorded, or failed before its record), reports its outcome to `run`,
   * again while the server does not take it. The POST and the report count as in flight until then.
   */
  report(run: WorkflowRun, attempt: { round: number; attempt: number }, finishing: Promise<AttemptOutcome>, by: ReportBy = 'signal'): void {
    const ids = { round: attempt.round, attempt: attempt.attempt };
    const reporting = finishing.then(
      (outcome) => this.signalUntilTaken(run, { ...ids, outcome }, by),
      () => this.signalUntilTaken(run, ids, by),
    );
    this.running.add(reporting);
    void reporting.finally(() => this.running.delete(reporting));
  }

  private async signalUntilTaken(run: WorkflowRun, collected: CollectedOutcome, by: ReportBy): Promise<void> {
    const until = this.now() + SIGNAL_FOR_MS;
    for (let wait = SIGNAL_RETRY_MS.first; ; wait = Math.min(wait * 2, SIGNAL_RETRY_MS.max)) {
      try {
        await this.signal(run, collected, by);
        return;
      } catch (err) {
        if (err instanceof RunEnded || this.now() + wait > until) return;
      }
      await this.sleep(wait);
    }
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

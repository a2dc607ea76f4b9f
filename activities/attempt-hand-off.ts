import { retryWithBackoff } from '../src/infra/retry-with-backoff';
import type { AttemptOutcome } from './delivery-activities';

/** An untaken report (Temporal restarting) is resent this long, until the run stops waiting (REPORT_WAIT). */
const REPORT_FOR_MS = 45_000;

export interface WorkflowRun {
  workflowId: string;
  /** Absent: the current run of `workflowId` (the report's round tells a later round's run to ignore it). */
  runId?: string;
}

/** What the workflow is told (the `attemptOutcome` update, workflows/attempt-outcome.ts). */
export interface ReportedOutcome {
  round: number;
  attempt: number;
  /** Absent when the attempt failed in the process before it was recorded: the workflow makes it again, reading the record first. */
  outcome?: AttemptOutcome;
}

/** What a reporter throws when there is nothing to tell (the run has ended, or no longer waits); anything else is sent again. */
export class RunEnded extends Error {}

/** POSTs past their local budget go on here, freeing the task; their outcome is told by update (else the workflow remakes it). */
export class AttemptHandOffs {
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    /** Tells `run`; a tell not answered by `deadline` (epoch ms) fails. */
    private readonly tell: (run: WorkflowRun, reported: ReportedOutcome, deadline: number) => Promise<void>,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    private readonly now: () => number = Date.now,
  ) {}

  get inFlight(): number {
    return this.running.size;
  }

  /** Once the POST has ended, reports its outcome to `run`, again while the server does not take it. */
  report(run: WorkflowRun, attempt: { round: number; attempt: number }, finishing: Promise<AttemptOutcome>): void {
    const ids = { round: attempt.round, attempt: attempt.attempt };
    const reporting = finishing.then(
      (outcome) => this.reportUntilTaken(run, { ...ids, outcome }),
      () => this.reportUntilTaken(run, ids),
    );
    this.running.add(reporting);
    void reporting.finally(() => this.running.delete(reporting));
  }

  private async reportUntilTaken(run: WorkflowRun, reported: ReportedOutcome): Promise<void> {
    const until = this.now() + REPORT_FOR_MS;
    await retryWithBackoff(
      // Past `until` the run has stopped waiting: a report still unanswered then is of no use.
      () => this.tell(run, reported, until),
      { firstMs: 250, maxMs: 5_000, sleep: this.sleep },
      (err, wait) => !(err instanceof RunEnded) && this.now() + wait <= until,
    );
  }

  /** Resolves once every POST handed off here has ended and been reported (a stop waits for it, up to its deadline). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}

import { setFirstAttemptsHeld } from '../src/infra/metrics';

/** A held attempt's place. */
export interface Hold {
  /** Settles when the process stops holding (a stop began): the attempt is then handed off at once. */
  readonly ended: Promise<void>;
  /** Gives the place back (once, however often called). */
  release(): void;
}

/**
 * First attempts that keep their workflow task while a slow receiver answers, counted against the
 * room this process sets aside for them (domain/webhooks/first-attempt-budget.ts says why they hold).
 *
 * A held attempt keeps a workflow-task slot and a local-activity slot; the rest stay free for eager
 * starts, timers and cancellations. An attempt that finds no room is handed off (attempt-hand-off.ts):
 * a flood of slow receivers costs Temporal more but never takes the worker's slots. A stop ends
 * every hold, and the POSTs go on as hand-offs for the rest of the stop's grace.
 */
export class AttemptHolds {
  private held = 0;
  private stopped = false;
  private endAll!: () => void;
  private readonly ended = new Promise<void>((resolve) => (this.endAll = resolve));

  constructor(
    /** Attempts held past their hand-off budget at once, at most. */
    readonly max: number,
  ) {}

  get size(): number {
    return this.held;
  }

  /** A place to keep holding the task, or null when this process holds its most or is stopping. */
  hold(): Hold | null {
    if (this.stopped || this.held >= this.max) return null;
    this.held++;
    setFirstAttemptsHeld(this.held);
    let released = false;
    return {
      ended: this.ended,
      release: () => {
        if (released) return;
        released = true;
        this.held--;
        setFirstAttemptsHeld(this.held);
      },
    };
  }

  /** A stop began: every held attempt is handed off now, and none is held from here on. */
  stop(): void {
    this.stopped = true;
    this.endAll();
  }
}

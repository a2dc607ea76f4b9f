import { setFirstAttemptsHeld } from '../src/infra/metrics';

/** Slow first attempts kept in their task, up to `max` (each holds a workflow-task and a local-activity slot). */
export class AttemptHolds {
  private held = 0;
  private stopped = false;
  private endAll!: () => void;
  private readonly ended = new Promise<void>((resolve) => (this.endAll = resolve));

  constructor(readonly max: number) {}

  /** A place to keep holding the task, or null when this process holds its most or is stopping. `ended`: a stop began, hand off at once; `release`: once, however often called. */
  hold(): { readonly ended: Promise<void>; release(): void } | null {
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

import { SlidingCount } from './sliding-count';

/**
 * Items done per second during which something waited, over `windowS`: a new arrival waits about (items
 * waiting) / (this rate). Not wall-clock throughput: below capacity that measures arrivals, and one item
 * done in a burst's first second would make thirty waiting look like 30 s. None until `minBusyMs` busy.
 */
export class BusyRate {
  private readonly counts: SlidingCount<'done' | 'busyMs'>;
  /** When the current busy spell's time was last counted (null: idle). */
  private busyCountedTo: number | null = null;

  constructor(
    private readonly windowS: number,
    private readonly minBusyMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.counts = new SlidingCount(windowS, now);
  }

  /** Tell whether work is waiting now (call on every change; repeating a state is harmless). */
  setBusy(busy: boolean): void {
    if (busy && this.busyCountedTo === null) this.busyCountedTo = this.now();
    else if (!busy && this.busyCountedTo !== null) {
      this.countBusyTime();
      this.busyCountedTo = null;
    }
  }

  done(n = 1): void {
    this.countBusyTime();
    this.counts.add('done', n);
  }

  /** Items done per busy second, or undefined while there is too little busy time to tell (or nothing was done in it). */
  perBusySecond(): number | undefined {
    this.countBusyTime();
    const busyMs = Math.min(this.windowS * 1000, this.counts.total('busyMs'));
    const done = this.counts.total('done');
    if (busyMs < this.minBusyMs || done === 0) return undefined;
    return (done / busyMs) * 1000;
  }

  /** Busy time is counted into the second it is observed in, so the window drops it as it ages. */
  private countBusyTime(): void {
    if (this.busyCountedTo === null) return;
    const t = this.now();
    if (t > this.busyCountedTo) this.counts.add('busyMs', t - this.busyCountedTo);
    this.busyCountedTo = t;
  }
}

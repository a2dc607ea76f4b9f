import { SlidingCount } from './sliding-count';

/**
 * Per key, items done per second during which something waited, over `windowS`: a new arrival waits about (items
 * waiting) / (this rate). Not wall-clock throughput: below capacity that measures arrivals, and one item done in a
 * burst's first second would make thirty waiting look like 30 s (as would a fresh process, or a key idle until then,
 * counted over the whole window). None until `minBusyMs` busy.
 */
export class BusyRate<K extends string = string> {
  private readonly doneCount: SlidingCount<K>;
  private readonly busyMs: SlidingCount<K>;
  /** Per key busy now, when its busy time was last counted. */
  private readonly busyCountedTo = new Map<K, number>();

  constructor(
    private readonly windowS: number,
    private readonly minBusyMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.doneCount = new SlidingCount(windowS, now);
    this.busyMs = new SlidingCount(windowS, now);
  }

  /**
   * Tell whether work of `key` is waiting now (call on every change; repeating a state is harmless). An end found late
   * gives `endedAt`, when it was: the time since is not counted busy (what was counted already stays).
   */
  setBusy(key: K, busy: boolean, endedAt?: number): void {
    if (busy && !this.busyCountedTo.has(key)) this.busyCountedTo.set(key, this.now());
    else if (!busy && this.busyCountedTo.has(key)) {
      this.countBusyTime(key, endedAt);
      this.busyCountedTo.delete(key);
    }
  }

  done(key: K, n = 1): void {
    this.countBusyTime(key);
    this.doneCount.add(key, n);
  }

  /** Items of `key` done per busy second, or undefined while there is too little busy time to tell (or nothing was done in it). */
  perBusySecond(key: K): number | undefined {
    this.countBusyTime(key);
    const busyMs = Math.min(this.windowS * 1000, this.busyMs.total(key));
    const done = this.doneCount.total(key);
    if (busyMs < this.minBusyMs || done === 0) return undefined;
    return (done / busyMs) * 1000;
  }

  /** Busy time is counted into the second it is observed in, so the window drops it as it ages. */
  private countBusyTime(key: K, to = this.now()): void {
    const from = this.busyCountedTo.get(key);
    if (from === undefined) return;
    const t = Math.min(to, this.now());
    if (t <= from) return;
    this.busyMs.add(key, t - from);
    this.busyCountedTo.set(key, t);
  }
}

import { SlidingCount } from './sliding-count';

/**
 * How long a refused caller is told to wait (503 `Retry-After`), from how oversubscribed the
 * platform has been lately: the calls it refused per call it took over the last `windowS` seconds,
 * between `minS` and `maxS`.
 *
 * Why not a fixed second: a refused call still costs the process its HTTP parse, key check and
 * metering. At three times capacity, callers told "1 s" were refused about 25 times per event
 * taken, and answering them took the CPU that delivery needed (goodput fell to 0.77–0.78 of
 * capacity in bench:overload). Told to wait in proportion to the overload, they come back about as fast as
 * events can be taken, so the refusals cost little and nobody waits longer than the queue needs.
 */
export const RETRY_AFTER_TUNING = { windowS: 10, minS: 1, maxS: 10 } as const;

export class RetryAfterAdvice {
  private readonly calls: SlidingCount<'taken' | 'refused'>;

  constructor(
    now: () => number = Date.now,
    private readonly tuning: { windowS: number; minS: number; maxS: number } = RETRY_AFTER_TUNING,
  ) {
    this.calls = new SlidingCount(tuning.windowS, now);
  }

  taken(): void {
    this.calls.add('taken');
  }

  refused(): void {
    this.calls.add('refused');
  }

  /** Whole seconds to wait, at least minS. */
  seconds(): number {
    const perTaken = this.calls.total('refused') / Math.max(this.calls.total('taken'), 1);
    return Math.min(this.tuning.maxS, Math.max(this.tuning.minS, Math.round(perTaken)));
  }
}

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
 * Each answer is drawn between half the advice and the advice: callers refused in the same second
 * would otherwise all come back in the same second (with only their own jitter of up to 500 ms),
 * a herd that stalled the process for seconds at three times capacity.
 */
export const RETRY_AFTER_TUNING = { windowS: 10, minS: 1, maxS: 10 } as const;

export class RetryAfterAdvice {
  private readonly calls: SlidingCount<'taken' | 'refused'>;

  constructor(
    now: () => number = Date.now,
    private readonly tuning: { windowS: number; minS: number; maxS: number } = RETRY_AFTER_TUNING,
    /** In [0, 1). */
    private readonly random: () => number = Math.random,
  ) {
    this.calls = new SlidingCount(tuning.windowS, now);
  }

  taken(): void {
    this.calls.add('taken');
  }

  refused(): void {
    this.calls.add('refused');
  }

  /** Whole seconds to wait, at least minS: between half the advice and the advice. */
  seconds(): number {
    const perTaken = this.calls.total('refused') / Math.max(this.calls.total('taken'), 1);
    const advice = Math.min(this.tuning.maxS, Math.max(this.tuning.minS, Math.round(perTaken)));
    const least = Math.max(this.tuning.minS, Math.ceil(advice / 2));
    return least + Math.floor(this.random() * (advice - least + 1));
  }
}

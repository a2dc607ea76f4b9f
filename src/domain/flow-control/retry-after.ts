import { SlidingCount } from './sliding-count';

/**
 * How long a refused caller is told to wait (503 `Retry-After`), from how oversubscribed the
 * platform has been lately: the calls it refused per call it took over the last `windowS` seconds,
 * between `minS` and `maxS`.
 *
 * Not a fixed second: a refused call still costs its parse, key check and metering; at three times
 * capacity, callers told "1 s" are refused about 25 times per event taken and goodput falls to 0.78
 * of capacity (bench:overload). Told to wait in proportion, they come back about as fast as events
 * can be taken. Each answer is drawn between half the advice and the advice, so callers refused in
 * the same second do not come back as one herd.
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

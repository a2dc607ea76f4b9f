import { SlidingCount } from './sliding-count';

/**
 * The 503 `Retry-After`: calls refused per call taken over `windowS`, in [minS, maxS], so refused callers come back about as
 * fast as events are taken. Not a fixed 1 s: refused calls still cost parse, key check and metering (goodput 0.78 at 3×
 * capacity). Each answer is drawn between half the advice and the advice, so callers refused together do not return as one herd.
 */
const TUNING = { windowS: 10, minS: 1, maxS: 10 } as const;

export class RetryAfterAdvice {
  private readonly calls: SlidingCount<'taken' | 'refused'>;

  constructor(
    now: () => number = Date.now,
    /** In [0, 1). */
    private readonly random: () => number = Math.random,
  ) {
    this.calls = new SlidingCount(TUNING.windowS, now);
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
    const advice = Math.min(TUNING.maxS, Math.max(TUNING.minS, Math.round(perTaken)));
    const least = Math.max(TUNING.minS, Math.ceil(advice / 2));
    return least + Math.floor(this.random() * (advice - least + 1));
  }
}

import { SlidingCount } from './sliding-count';

/**
 * The 503 `Retry-After`: `secondsPerRatio` s per call refused per call taken over `windowS`, in [minS, maxS]. Refused calls
 * still cost CPU on the cores that deliver, and a flood is usually shorter than a caller's retries (doubled per try): the
 * more oversubscribed the platform, the more of those retries should land after the flood, when there is room
 * (measured at 3 × capacity: BENCHMARKS.md, bench:overload).
 * Each answer is drawn between half the advice and the advice, so callers refused together do not return as one herd.
 */
const TUNING = { windowS: 10, minS: 1, maxS: 30, secondsPerRatio: 3 } as const;

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

  /** Counts a refusal; answers the whole seconds it should wait, decided on the calls before it (a lone refusal after a quiet spell: 1 s). */
  refuse(): number {
    const perTaken = this.calls.total('refused') / Math.max(this.calls.total('taken'), 1);
    this.calls.add('refused');
    const advice = Math.min(TUNING.maxS, Math.max(TUNING.minS, Math.floor(TUNING.secondsPerRatio * perTaken)));
    // Between half the advice and the advice.
    const least = Math.max(TUNING.minS, Math.ceil(advice / 2));
    return least + Math.floor(this.random() * (advice - least + 1));
  }
}

/** Counts by name over the last `windowS` whole seconds, in per-second buckets with running totals: cheap to read often. */
export class SlidingCount<K extends string> {
  private readonly buckets: Array<{ second: number; counts: Map<K, number> }> = [];
  private readonly totals = new Map<K, number>();
  private sum = 0;

  constructor(
    private readonly windowS: number,
    private readonly now: () => number = Date.now,
  ) {}

  add(kind: K, n = 1): void {
    this.prune();
    const second = Math.floor(this.now() / 1000);
    let last = this.buckets[this.buckets.length - 1];
    if (last?.second !== second) {
      last = { second, counts: new Map() };
      this.buckets.push(last);
    }
    last.counts.set(kind, (last.counts.get(kind) ?? 0) + n);
    this.totals.set(kind, (this.totals.get(kind) ?? 0) + n);
    this.sum += n;
  }

  total(kind: K): number {
    this.prune();
    return this.totals.get(kind) ?? 0;
  }

  /** Everything counted over the window, and under how many names. */
  overall(): { sum: number; kinds: number } {
    this.prune();
    return { sum: this.sum, kinds: this.totals.size };
  }

  private prune(): void {
    const oldest = Math.floor(this.now() / 1000) - this.windowS + 1;
    while (this.buckets.length > 0 && this.buckets[0].second < oldest) {
      const { counts } = this.buckets.shift() as { counts: Map<K, number> };
      for (const [kind, n] of counts) {
        addCount(this.totals, kind, -n);
        this.sum -= n;
      }
    }
  }
}

/** Adds `delta` to a key's count; a count that falls to 0 or below is removed. */
export function addCount<K>(counts: Map<K, number>, key: K, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}

/** Counts by name over the last `windowS` whole seconds, in per-second buckets: cheap to read often. */
export class SlidingCount<K extends string> {
  private readonly buckets: Array<{ second: number; counts: Partial<Record<K, number>> }> = [];

  constructor(
    private readonly windowS: number,
    private readonly now: () => number = Date.now,
  ) {}

  add(kind: K, n = 1): void {
    this.prune();
    const second = Math.floor(this.now() / 1000);
    let last = this.buckets[this.buckets.length - 1];
    if (last?.second !== second) {
      last = { second, counts: {} };
      this.buckets.push(last);
    }
    last.counts[kind] = (last.counts[kind] ?? 0) + n;
  }

  total(kind: K): number {
    this.prune();
    let sum = 0;
    for (const b of this.buckets) sum += b.counts[kind] ?? 0;
    return sum;
  }

  private prune(): void {
    const oldest = Math.floor(this.now() / 1000) - this.windowS + 1;
    while (this.buckets.length > 0 && this.buckets[0].second < oldest) this.buckets.shift();
  }
}

/** Each window is kept as this many buckets, so a lag leaves it within a quarter of the window. */
const BUCKETS_PER_WINDOW = 4;

/** Each account's worst lag (acceptance to a first attempt's place) over `windowMs`; ingest refuses those past a bound, only those. */
export class AccountLags {
  private readonly buckets: Array<{ slot: number; worst: Map<string, number> }> = [];
  private readonly bucketMs: number;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.bucketMs = Math.max(1, Math.floor(windowMs / BUCKETS_PER_WINDOW));
  }

  record(accountId: string, lagMs: number): void {
    this.prune();
    const slot = Math.floor(this.now() / this.bucketMs);
    let last = this.buckets[this.buckets.length - 1];
    if (last?.slot !== slot) this.buckets.push((last = { slot, worst: new Map() }));
    last.worst.set(accountId, Math.max(last.worst.get(accountId) ?? 0, lagMs));
  }

  /** The accounts whose worst lag over the window is past `boundMs`, with that lag. */
  over(boundMs: number): Array<{ accountId: string; lagMs: number }> {
    this.prune();
    const worst = new Map<string, number>();
    for (const b of this.buckets) for (const [accountId, lag] of b.worst) worst.set(accountId, Math.max(worst.get(accountId) ?? 0, lag));
    return [...worst].filter(([, lag]) => lag > boundMs).map(([accountId, lagMs]) => ({ accountId, lagMs }));
  }

  private prune(): void {
    const oldest = Math.floor(this.now() / this.bucketMs) - Math.ceil(this.windowMs / this.bucketMs) + 1;
    while (this.buckets.length > 0 && (this.buckets[0] as { slot: number }).slot < oldest) this.buckets.shift();
  }
}

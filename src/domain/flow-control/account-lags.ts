/**
 * How late each account's deliveries are: per first attempt, from its event's acceptance to getting
 * a place (or being told to wait), and per account the worst of the last `windowS` seconds. Workers
 * measure it where the work waits and publish the accounts past a bound, so API processes can refuse
 * those accounts, and only those.
 */
export class AccountLags {
  private readonly buckets: Array<{ second: number; worst: Map<string, number> }> = [];

  constructor(
    private readonly windowS: number,
    private readonly now: () => number = Date.now,
  ) {}

  record(accountId: string, lagMs: number): void {
    this.prune();
    const second = Math.floor(this.now() / 1000);
    let last = this.buckets[this.buckets.length - 1];
    if (last?.second !== second) this.buckets.push((last = { second, worst: new Map() }));
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
    const oldest = Math.floor(this.now() / 1000) - this.windowS + 1;
    while (this.buckets.length > 0 && (this.buckets[0] as { second: number }).second < oldest) this.buckets.shift();
  }
}

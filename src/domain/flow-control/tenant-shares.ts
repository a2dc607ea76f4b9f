/** What each tenant took over `windowS`: when short, those at or above an equal share are refused. */
export class TenantShares {
  private readonly buckets: Array<{ second: number; taken: Map<string, number> }> = [];
  private readonly totals = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly windowS: number,
    private readonly now: () => number = Date.now,
  ) {}

  add(tenant: string, n = 1): void {
    this.prune();
    const second = Math.floor(this.now() / 1000);
    let last = this.buckets[this.buckets.length - 1];
    if (last?.second !== second) this.buckets.push((last = { second, taken: new Map() }));
    last.taken.set(tenant, (last.taken.get(tenant) ?? 0) + n);
    this.totals.set(tenant, (this.totals.get(tenant) ?? 0) + n);
    this.total += n;
  }

  /** Whether the tenant took at least an equal share over the window (a tenant alone always does). */
  atOrAboveShare(tenant: string): boolean {
    this.prune();
    const taken = this.totals.get(tenant) ?? 0;
    return taken > 0 && taken * this.totals.size >= this.total;
  }

  private prune(): void {
    const oldest = Math.floor(this.now() / 1000) - this.windowS + 1;
    while (this.buckets.length > 0 && (this.buckets[0] as { second: number }).second < oldest) {
      const { taken } = this.buckets.shift() as { taken: Map<string, number> };
      for (const [tenant, n] of taken) {
        const left = (this.totals.get(tenant) ?? 0) - n;
        if (left <= 0) this.totals.delete(tenant);
        else this.totals.set(tenant, left);
        this.total -= n;
      }
    }
  }
}

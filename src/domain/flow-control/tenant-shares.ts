import { SlidingCount } from './sliding-count';

/** What each tenant took over `windowS`: when short, those at or above an equal share are refused. */
export class TenantShares {
  private readonly taken: SlidingCount<string>;

  constructor(windowS: number, now: () => number = Date.now) {
    this.taken = new SlidingCount(windowS, now);
  }

  add(tenant: string, n = 1): void {
    this.taken.add(tenant, n);
  }

  /** Whether the tenant took at least an equal share over the window (a tenant alone always does). */
  atOrAboveShare(tenant: string): boolean {
    const taken = this.taken.total(tenant);
    const { sum, kinds } = this.taken.overall();
    return taken > 0 && taken * kinds >= sum;
  }
}

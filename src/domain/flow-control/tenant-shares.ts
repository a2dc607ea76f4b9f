import { SlidingCount } from './sliding-count';

/** What each tenant took over `windowS`: when short, those at or above an equal share are refused. */
export class TenantShares extends SlidingCount<string> {
  /** Whether the tenant took at least an equal share over the window (a tenant alone always does). */
  atOrAboveShare(tenant: string): boolean {
    const taken = this.total(tenant);
    const { sum, kinds } = this.overall();
    return taken > 0 && taken * kinds >= sum;
  }
}

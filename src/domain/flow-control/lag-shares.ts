/** Each step an account is late, its admitted share is multiplied by this (about 0.56 a second at four steps a second). */
const DECREASE = 0.865;
/** Each step it is well within the bound, its share grows by this, back to all of its calls (0.2 a second). */
const INCREASE = 0.05;
/** A late account still gets this share in: its lag is measured on the events it gets in. */
const FLOOR = 0.05;
/**
 * Between this fraction of the bound and the bound, a share holds: growing it there is what
 * carries the lag past the bound, seconds before the report of it arrives.
 */
const HOLD_FROM = 0.5;

/** The lag from which workers report an account: where its share stops growing. */
export const reportedFrom = (boundMs: number): number => boundMs * HOLD_FROM;

/**
 * What share of its new events each late account gets in (AIMD, as TCP's window): cut by a factor
 * each step it is late, held while it is close to late, grown by a step when well within. Not on/off:
 * its lag is known only seconds after its events were let in, so on/off swings between taking a
 * whole flood and taking nothing.
 */
export class LagShares {
  private readonly shares = new Map<string, number>();

  /** One step: `lags` are the accounts the workers report near or past `boundMs` now, with their lag (ms). */
  step(lags: ReadonlyMap<string, number>, boundMs: number): void {
    for (const [accountId, share] of this.shares) {
      if ((lags.get(accountId) ?? 0) > boundMs * HOLD_FROM) continue;
      const grown = share + INCREASE;
      if (grown >= 1) this.shares.delete(accountId);
      else this.shares.set(accountId, grown);
    }
    for (const [accountId, lag] of lags) {
      if (lag > boundMs) this.shares.set(accountId, Math.max(FLOOR, (this.shares.get(accountId) ?? 1) * DECREASE));
    }
  }

  /** The share of the account's new events to let in now (1 for an account that is not late). */
  shareOf(accountId: string): number {
    return this.shares.get(accountId) ?? 1;
  }
}

/** Each step an account is late, its admitted share is multiplied by this (about 0.56 a second at four steps a second). */
const DECREASE = 0.865;
/** Each step it is well within the bound, its share grows by this, back to all of its calls (0.2 a second). */
const INCREASE = 0.05;
/** A late account still gets this share in: its lag is measured on the events it gets in. */
const FLOOR = 0.05;
/** Shares hold from this fraction of the bound: growing there pushes lag past it before it is reported. */
const HOLD_FROM = 0.5;

/** The lag from which workers report an account: where its share stops growing. */
export const reportedFrom = (boundMs: number): number => boundMs * HOLD_FROM;

/**
 * The share of new events each late account gets in (AIMD): cut each step it is late, held near the bound,
 * grown when well within. Not on/off: lag is known seconds late, so on/off swings from a flood to nothing.
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

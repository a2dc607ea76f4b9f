/** Each step an account is late, its level is multiplied by this (its share by 0.75; about 0.31 a second at four steps a second). */
const DECREASE = 0.865;
/** Each step it is well within the bound, its level grows by this, back to all of its calls (0.2 a second). */
const INCREASE = 0.05;
/** A late account's lowest level: it still gets 1 in 400 of its new events in, on which its lag is measured. */
const FLOOR = 0.05;
/** Shares hold from this fraction of the bound: growing there pushes lag past it before it is reported. */
const HOLD_FROM = 0.5;

/** The lag from which workers report an account: where its share stops growing. */
export const reportedFrom = (boundMs: number): number => boundMs * HOLD_FROM;

/**
 * The share of new events each late account gets in (AIMD: cut while late, held near the bound, grown well within); not
 * on/off, as lag is known seconds late. The share is the level squared: at the floor a flood retrying every refusal gets
 * only a trickle in, and the first steps back let in a few events, not a twentieth of the flood.
 */
export class LagShares {
  /** Each late account's level (absent: 1). */
  private readonly levels = new Map<string, number>();

  /** One step: `lags` are the accounts the workers report near or past `boundMs` now, with their lag (ms). */
  step(lags: ReadonlyMap<string, number>, boundMs: number): void {
    for (const [accountId, level] of this.levels) {
      if ((lags.get(accountId) ?? 0) > boundMs * HOLD_FROM) continue;
      const grown = level + INCREASE;
      if (grown >= 1) this.levels.delete(accountId);
      else this.levels.set(accountId, grown);
    }
    for (const [accountId, lag] of lags) {
      if (lag > boundMs) this.levels.set(accountId, Math.max(FLOOR, (this.levels.get(accountId) ?? 1) * DECREASE));
    }
  }

  /** The share of the account's new events to let in now (1 for an account that is not late). */
  shareOf(accountId: string): number {
    return (this.levels.get(accountId) ?? 1) ** 2;
  }
}

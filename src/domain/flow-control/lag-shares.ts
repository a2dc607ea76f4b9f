/** Each step an account is late, its admitted share is multiplied by this. */
const DECREASE = 0.6;
/** Each step it is not, its share grows by this, back to all of its calls. */
const INCREASE = 0.1;
/** A late account still gets this share in: its lag is measured on the events it gets in. */
const FLOOR = 0.05;

/**
 * What share of its new events each late account gets in (AIMD, as TCP's window): cut by a factor
 * each step it is late, grown by a step when not. Not on/off: its lag is known only seconds after
 * its events were let in, so on/off swings between taking a whole flood and taking nothing.
 */
export class LagShares {
  private readonly shares = new Map<string, number>();

  /** One step: `late` are the accounts the workers report late now. */
  step(late: ReadonlySet<string>): void {
    for (const [accountId, share] of this.shares) {
      if (late.has(accountId)) continue;
      const grown = share + INCREASE;
      if (grown >= 1) this.shares.delete(accountId);
      else this.shares.set(accountId, grown);
    }
    for (const accountId of late) this.shares.set(accountId, Math.max(FLOOR, (this.shares.get(accountId) ?? 1) * DECREASE));
  }

  /** The share of the account's new events to let in now (1 for an account that is not late). */
  shareOf(accountId: string): number {
    return this.shares.get(accountId) ?? 1;
  }
}

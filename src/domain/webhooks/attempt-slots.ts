/**
 * How many delivery attempts one account, and one endpoint, may have in flight at once in this
 * process (security.md finding 9, delivery.md "Fairness"). An attempt in flight holds its place
 * from before its DNS lookup until its POST ends, so a tenant whose receivers hang, or whose names
 * never resolve, holds at most `perAccount` of the worker's POSTs and name lookups, and the
 * attempts of every other account still run.
 *
 * An attempt over a bound waits its turn (in order, per account and endpoint) for at most the wait
 * it is given; when none frees in time it is told so (null), and the caller makes it again later
 * without counting it (delivery-activities.ts: a retryable "throttled" failure).
 */

export interface AttemptSlotLimits {
  /** Attempts of one account in flight at once, per process. */
  perAccount: number;
  /** Attempts to one endpoint in flight at once, per process (at most perAccount). */
  perEndpoint: number;
}

export const DEFAULT_ATTEMPT_SLOT_LIMITS: AttemptSlotLimits = Object.freeze({ perAccount: 32, perEndpoint: 16 });

/** Frees the place (once, however often called). */
export type LeaveSlot = () => void;

interface Waiter {
  accountId: string;
  endpointId: string;
  admit: (leave: LeaveSlot) => void;
}

export class AttemptSlots {
  private readonly byAccount = new Map<string, number>();
  private readonly byEndpoint = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: AttemptSlotLimits = DEFAULT_ATTEMPT_SLOT_LIMITS) {}

  /** Attempts of this account in flight now. */
  inFlight(accountId: string): number {
    return this.byAccount.get(accountId) ?? 0;
  }

  /** A place for one attempt within `waitMs`, or null when the account or endpoint had none free by then. */
  async enter(accountId: string, endpointId: string, waitMs: number): Promise<LeaveSlot | null> {
    // No waiter fits at any moment (a release admits every one that does), so one that fits now
    // passes nobody who could go.
    if (this.fits(accountId, endpointId)) return this.take(accountId, endpointId);
    return new Promise<LeaveSlot | null>((resolve) => {
      const waiter: Waiter = {
        accountId,
        endpointId,
        admit: (leave) => {
          clearTimeout(timer);
          resolve(leave);
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        resolve(null);
      }, waitMs);
      timer.unref(); // a wait keeps nothing alive on its own
      this.waiting.push(waiter);
    });
  }

  private fits(accountId: string, endpointId: string): boolean {
    return (this.byAccount.get(accountId) ?? 0) < this.limits.perAccount && (this.byEndpoint.get(endpointId) ?? 0) < this.limits.perEndpoint;
  }

  private take(accountId: string, endpointId: string): LeaveSlot {
    add(this.byAccount, accountId, 1);
    add(this.byEndpoint, endpointId, 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      add(this.byAccount, accountId, -1);
      add(this.byEndpoint, endpointId, -1);
      this.admitWaiting(accountId);
    };
  }

  /** The first waiters of this account that fit now, in the order they came. */
  private admitWaiting(accountId: string): void {
    for (let i = 0; i < this.waiting.length; ) {
      const waiter = this.waiting[i] as Waiter;
      if (waiter.accountId !== accountId || !this.fits(waiter.accountId, waiter.endpointId)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      waiter.admit(this.take(waiter.accountId, waiter.endpointId));
      if ((this.byAccount.get(accountId) ?? 0) >= this.limits.perAccount) return;
    }
  }
}

function add(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}

import { BusyRate } from '../flow-control/busy-rate';
import { addCount } from '../flow-control/sliding-count';
import { throttleFloorMs, ThrottledTurns } from '../flow-control/throttled-turns';

/**
 * Attempts in flight per account and per endpoint in this process (DNS lookup to POST end): a tenant whose receivers hang
 * holds at most `perAccount`. One with no place waits briefly, then is throttled; the outbox holds the account's starts.
 */

export interface AttemptSlotLimits {
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
  delivery: string | undefined;
  admit: (leave: LeaveSlot) => void;
}

/**
 * Places freed per second while the account asked for more than it had (all taken, or attempts throttled), over this
 * window: the pace at which a throttled attempt's turn comes. Counted over that time only, so that a fresh process or an
 * account idle until its burst is not taken as slow; none before it has asked for more this long.
 */
const FREED_WINDOW_S = 60;
const FREED_MIN_BUSY_MS = 1_000;

/**
 * Until that pace is known, each place is taken to free once a second (a 1 s receiver): a burst's first second is
 * otherwise taken in as if its wait were nothing (bench:burst, BENCHMARKS.md).
 */
const UNKNOWN_PACE_PER_PLACE = 1;

export class AttemptSlots {
  private readonly byAccount = new Map<string, number>();
  private readonly byEndpoint = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  /** Per account, its attempts in `waiting`. */
  private readonly waitingOf = new Map<string, number>();
  private readonly freed: Array<(accountId: string) => void> = [];
  private readonly freedWhileBusy: BusyRate;
  private readonly turns: ThrottledTurns;

  constructor(
    private readonly limits: AttemptSlotLimits = DEFAULT_ATTEMPT_SLOT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.freedWhileBusy = new BusyRate(FREED_WINDOW_S, FREED_MIN_BUSY_MS, now);
    // Throttled attempts that never came back (cancelled) leave the account busy only until they were due. Their drop is
    // seen before any place is taken or freed (busy() asks the turns first), so whether it is full has not changed since.
    this.turns = new ThrottledTurns(now, (accountId, at) => {
      if (!this.full(accountId)) this.freedWhileBusy.setBusy(accountId, false, at);
    });
  }

  inFlight(accountId: string): number {
    return this.byAccount.get(accountId) ?? 0;
  }

  full(accountId: string): boolean {
    return this.inFlight(accountId) >= this.limits.perAccount;
  }

  /**
   * How long a new attempt of the account would wait for a place here, while the account asks for more places than it has
   * (else 0): its attempts throttled, waiting here or `onTheWay` (started, not yet asking: DeliveryStartWindow.waitingOf,
   * asked only while busy), all ahead of it, at the pace its places free (until known, UNKNOWN_PACE_PER_PLACE). Waiting for
   * an endpoint's places too, which `full` does not show.
   */
  expectedWaitMs(accountId: string, onTheWay: () => number = () => 0): number {
    if (!this.busy(accountId)) return 0;
    const ahead = this.turns.waiting(accountId) + (this.waitingOf.get(accountId) ?? 0) + onTheWay();
    const perSecond = this.freedWhileBusy.perBusySecond(accountId) ?? this.limits.perAccount * UNKNOWN_PACE_PER_PLACE;
    return (ahead / perSecond) * 1000;
  }

  /** Told the account whenever one of its places frees (and no waiter of its took it). */
  onFree(listener: (accountId: string) => void): void {
    this.freed.push(listener);
  }

  /** A place within `waitMs` (in order per account), or null if the account or endpoint had none free. */
  async enter(accountId: string, endpointId: string, waitMs: number, delivery?: string): Promise<LeaveSlot | null> {
    // A release admits every waiter that fits, so one that fits now passes nobody who could go.
    if (this.fits(accountId, endpointId)) return this.take(accountId, endpointId, delivery);
    if (waitMs <= 0) return null;
    return new Promise<LeaveSlot | null>((resolve) => {
      const waiter: Waiter = {
        accountId,
        endpointId,
        delivery,
        admit: (leave) => {
          clearTimeout(timer);
          resolve(leave);
        },
      };
      const timer = setTimeout(() => {
        this.unqueueWaiter(waiter);
        this.updateBusy(accountId);
        resolve(null);
      }, waitMs);
      timer.unref(); // a wait keeps nothing alive on its own
      this.queueWaiter(waiter);
      this.updateBusy(accountId);
    });
  }

  /**
   * Counts a delivery that found no place as waiting, and answers how long it waits before asking again (throttled-turns.ts):
   * its doubling back-off, or, once the account's places are seen freeing, its turn behind the account's attempts throttled
   * before it (no doubling then: a doubled wait would leave it seconds after its turn).
   */
  throttle(accountId: string, delivery: string, tries: number, random: number): number {
    this.updateBusy(accountId); // first drops its throttled attempts gone, so that the pace does not count their time
    const perSecond = this.freedWhileBusy.perBusySecond(accountId) ?? 0;
    const delay = this.turns.wait(accountId, delivery, perSecond, throttleFloorMs(perSecond, tries, random), random);
    this.updateBusy(accountId);
    return delay;
  }

  private fits(accountId: string, endpointId: string): boolean {
    return !this.full(accountId) && (this.byEndpoint.get(endpointId) ?? 0) < this.limits.perEndpoint;
  }

  /** A place for the delivery, which no longer waits if it was throttled. */
  private take(accountId: string, endpointId: string, delivery: string | undefined): LeaveSlot {
    if (delivery !== undefined) this.turns.served(accountId, delivery);
    this.updateBusy(accountId); // as it was until now, its throttled attempts gone dropped
    addCount(this.byAccount, accountId, 1);
    addCount(this.byEndpoint, endpointId, 1);
    this.updateBusy(accountId);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (this.busy(accountId)) this.freedWhileBusy.done(accountId);
      addCount(this.byAccount, accountId, -1);
      addCount(this.byEndpoint, endpointId, -1);
      this.admitWaiting(accountId);
      this.updateBusy(accountId);
      if (!this.full(accountId)) for (const listener of this.freed) listener(accountId);
    };
  }

  /** Asking for more places than it has: attempts throttled (asked first: it drops those gone) or waiting here, or all taken. */
  private busy(accountId: string): boolean {
    return this.turns.waiting(accountId) > 0 || (this.waitingOf.get(accountId) ?? 0) > 0 || this.full(accountId);
  }

  private updateBusy(accountId: string): void {
    this.freedWhileBusy.setBusy(accountId, this.busy(accountId));
  }

  /**
   * A throttled attempt back for its turn waits before the account's fresh attempts and those throttled after it: else
   * the places freed while it was away go to newer attempts, and it is throttled again, to wait as long once more.
   */
  private queueWaiter(waiter: Waiter): void {
    const place = this.placeOf(waiter);
    const before = place === Infinity ? -1 : this.waiting.findIndex((w) => w.accountId === waiter.accountId && this.placeOf(w) > place);
    if (before === -1) this.waiting.push(waiter);
    else this.waiting.splice(before, 0, waiter);
    addCount(this.waitingOf, waiter.accountId, 1);
  }

  private unqueueWaiter(waiter: Waiter): void {
    this.waiting.splice(this.waiting.indexOf(waiter), 1);
    addCount(this.waitingOf, waiter.accountId, -1);
  }

  /** A waiter's place among its account's throttled attempts; Infinity for a fresh attempt. */
  private placeOf(waiter: Waiter): number {
    return (waiter.delivery === undefined ? undefined : this.turns.placeOf(waiter.accountId, waiter.delivery)) ?? Infinity;
  }

  /** The first waiters of this account that fit now, in their order (throttled attempts back for their turn first). */
  private admitWaiting(accountId: string): void {
    for (const waiter of this.waiting.filter((w) => w.accountId === accountId)) {
      if (this.full(accountId)) return;
      if (!this.fits(accountId, waiter.endpointId)) continue;
      this.unqueueWaiter(waiter);
      waiter.admit(this.take(accountId, waiter.endpointId, waiter.delivery));
    }
  }
}

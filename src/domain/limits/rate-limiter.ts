import { BurstLimitError, QuotaExceededError } from '../errors';
import { billingPeriodAt, secondsUntil } from './billing-period';
import { BURST_WINDOW_MS } from './tiers';

/**
 * Exact fixed-window and monthly limits shared by every API process through the database.
 *
 * The only atomic primitive we rely on is "insert a document with a unique _id": it holds on
 * real MongoDB and on FerretDB (whose read-modify-write updates such as $inc are not atomic
 * under concurrency). A call is admitted by claiming slot k (1 ≤ k ≤ limit) of its window:
 * each slot can be claimed once, so no more than `limit` calls are ever admitted, whatever
 * the number of processes. The same holds for the monthly quota, whose slots double as the
 * usage records of the billing period.
 */

export interface WindowRecord {
  seq: number;
  start: Date;
  end: Date;
}

/** Persistence port; src/persistence implements it on MongoDB. */
export interface SlotStore {
  latestWindow(bucket: string): Promise<WindowRecord | null>;
  /** false when another process created window `seq` first. */
  createWindow(bucket: string, window: WindowRecord, expiresAt: Date): Promise<boolean>;
  /** false when slot k of `scope` is already taken. */
  claimSlot(scope: string, k: number, expiresAt: Date): Promise<boolean>;
  releaseSlot(scope: string, k: number): Promise<void>;
  /**
   * The highest taken slot of `scope` searching upwards from `from` (known or assumed taken).
   * May be an underestimate when released slots left holes: the limiter only uses it as a hint.
   */
  highestSlot(scope: string, from?: number): Promise<number>;
  /** Every taken slot (may be expensive: called only when a scope looks full). */
  takenSlots(scope: string): Promise<number[]>;
}

export interface LimitPolicy {
  /** `acct:<id>` for key-scoped calls, `ip:<addr>` for anonymous estimator calls. */
  bucket: string;
  burstLimit: number;
  /** Infinity: no quota, calls are still counted. */
  quotaLimit: number;
}

export interface LimitState {
  burstLimit: number;
  burstRemaining: number;
  burstResetAt: Date;
  quotaUsed: number;
  quotaLimit: number;
}

export interface Admission {
  state: LimitState;
  /** Gives the call back (a 5xx is not counted against either limit). */
  release(): Promise<void>;
}

interface Reservation {
  k: number;
  /** A slot this process had given back (vs. one above its hint). */
  reused: boolean;
}

interface Claimed {
  slot: number;
  count: number;
}

/** A rejected call: the error for the body, the state for the headers. */
export class LimitRejection extends Error {
  constructor(readonly error: BurstLimitError | QuotaExceededError, readonly state: LimitState) {
    super(error.message);
  }
}

const BURST_SLOT_GRACE_MS = 60_000;
const USAGE_RETENTION_MS = 90 * 24 * 3600 * 1000;
/**
 * How long a process trusts its own finding that every slot of a scope is taken before
 * looking again (a burst window ends sooner). Until then a call is refused without touching
 * the database; a slot given back by another process in the meantime is re-used by that one.
 */
const FULL_RECHECK_MS = 60_000;
/** Failed claims in a row after which the hint is re-estimated from the store instead of counting up one by one. */
const MISSES_BEFORE_REESTIMATE = 2;

/** Past this many buckets the per-process hints are dropped (they are only hints; see claim). */
const MAX_TRACKED_BUCKETS = 50_000;

export class RateLimiter {
  private readonly windows = new Map<string, WindowRecord>();
  /** Highest slot of a scope known to be taken, by this process or (when loaded) by any. */
  private readonly hints = new Map<string, number>();
  /** Slots below the hint that this process gave back (5xx refunds, quota rejections): re-used first. */
  private readonly freed = new Map<string, Set<number>>();
  /** When this process found every slot of a scope taken, and under which limit. */
  private readonly full = new Map<string, { at: number; limit: number }>();
  /** Per usage scope: slots claimed together with a burst slot whose outcome is not known yet. */
  private readonly speculative = new Map<string, number>();
  private readonly loading = new Map<string, Promise<number>>();
  /** The current usage scope of each bucket, so the previous period's hints can be dropped. */
  private readonly usageScopes = new Map<string, string>();

  constructor(private readonly store: SlotStore, private readonly clock: () => Date = () => new Date()) {}

  async admit(policy: LimitPolicy): Promise<Admission> {
    const now = this.clock();
    const period = billingPeriodAt(now);
    if (this.windows.size > MAX_TRACKED_BUCKETS) this.forgetAll();
    const usageScope = `u:${policy.bucket}:${period.id}`;
    this.enterUsageScope(policy.bucket, usageScope);
    const window = await this.currentWindow(policy.bucket, now);
    const burstScope = `b:${policy.bucket}:${window.seq}`;
    const stateWith = (burstTaken: number, used: number): LimitState => ({
      burstLimit: policy.burstLimit,
      burstRemaining: Math.max(0, policy.burstLimit - burstTaken),
      burstResetAt: window.end,
      quotaUsed: used,
      quotaLimit: policy.quotaLimit,
    });
    const quotaRejection = async () => {
      // At least the limit: this process may not yet have seen every slot another one took.
      const used = Math.max(policy.quotaLimit, await this.count(usageScope));
      return new LimitRejection(
        new QuotaExceededError(policy.quotaLimit, used, period.end, secondsUntil(period.end, now)),
        stateWith(await this.count(burstScope), used),
      );
    };

    // Exhaustion is monotonic within a period (refunds aside), so a recent finding answers
    // without a claim, unless the limit has since been raised (tier change).
    if (this.knownFull(usageScope, policy.quotaLimit, now)) throw await quotaRejection();

    const burstRejection = async () =>
      // A concurrent call may have opened the window a moment after this call's clock reading.
      new LimitRejection(
        new BurstLimitError(secondsUntil(window.end, now < window.start ? window.start : now)),
        stateWith(policy.burstLimit, (await this.count(usageScope)) - (this.speculative.get(usageScope) ?? 0)),
      );
    if (this.knownFull(burstScope, policy.burstLimit, now)) throw await burstRejection();
    const burstExpiry = new Date(window.end.getTime() + BURST_SLOT_GRACE_MS);
    const claimUsage = () => this.claim(usageScope, policy.quotaLimit, now, new Date(period.end.getTime() + USAGE_RETENTION_MS));
    // While the window has a slot for this call (as far as this process knows; reserved here, with
    // no await in between), both slots are claimed at once: one round trip, usually one batch. A
    // call refused by one limit gives the other slot back, so it is counted in neither; while it
    // holds that slot for a moment, a concurrent call at the very edge of the other limit may be
    // refused that would have fitted a moment later, never the reverse. When the window looks
    // full, the burst slot is looked for first and alone, so refused calls never touch the quota.
    await this.hint(burstScope);
    const reserved = this.reserve(burstScope, policy.burstLimit);
    let burst: Claimed | null;
    let usage: Claimed | null;
    // Usage slots claimed alongside a burst slot that may still be refused: not yet counted
    // calls, left out of the counts that concurrent refusals report.
    let speculative = false;
    const settle = () => {
      if (!speculative) return;
      speculative = false;
      const left = (this.speculative.get(usageScope) ?? 1) - 1;
      if (left > 0) this.speculative.set(usageScope, left);
      else this.speculative.delete(usageScope);
    };
    if (reserved) {
      speculative = true;
      this.speculative.set(usageScope, (this.speculative.get(usageScope) ?? 0) + 1);
      try {
        [burst, usage] = await Promise.all([this.claim(burstScope, policy.burstLimit, now, burstExpiry, reserved), claimUsage()]);
      } catch (err) {
        settle();
        throw err;
      }
    } else {
      burst = await this.claim(burstScope, policy.burstLimit, now, burstExpiry, null);
      usage = burst ? await claimUsage() : null;
    }
    if (burst === null) {
      if (usage) await this.release(usageScope, usage.slot).finally(settle);
      settle();
      throw await burstRejection();
    }
    settle();
    if (usage === null) {
      await this.release(burstScope, burst.slot);
      throw await quotaRejection();
    }
    return {
      state: stateWith(burst.count, usage.count),
      release: async () => {
        await Promise.all([this.release(burstScope, burst.slot), this.release(usageScope, usage.slot)]);
      },
    };
  }

  /** Calls counted in the current billing period (for the dashboard): what this process knows, or the store's estimate. */
  async usage(bucket: string): Promise<number> {
    const scope = `u:${bucket}:${billingPeriodAt(this.clock()).id}`;
    const known = this.hints.has(scope) ? await this.count(scope) : 0;
    return Math.max(known, await this.store.highestSlot(scope, 0));
  }

  private async currentWindow(bucket: string, now: Date): Promise<WindowRecord> {
    const cached = this.windows.get(bucket);
    if (cached && now < cached.end) return cached;
    for (;;) {
      const latest = await this.store.latestWindow(bucket);
      // A window that has not ended is current, even if it seems to start a little in the
      // future (another process's clock runs ahead): opening another would grant a second budget.
      if (latest && now < latest.end) {
        this.enterWindow(bucket, latest);
        return latest;
      }
      // The previous window has ended: this call opens the next one, unless another process just did.
      const next: WindowRecord = { seq: (latest?.seq ?? 0) + 1, start: now, end: new Date(now.getTime() + BURST_WINDOW_MS) };
      if (await this.store.createWindow(bucket, next, new Date(next.end.getTime() + 24 * 3600 * 1000))) {
        this.enterWindow(bucket, next);
        this.hints.set(`b:${bucket}:${next.seq}`, 0);
        return next;
      }
    }
  }

  private async hint(scope: string): Promise<number> {
    const known = this.hints.get(scope);
    if (known !== undefined) return known;
    let loading = this.loading.get(scope);
    if (!loading) {
      loading = this.store.highestSlot(scope);
      this.loading.set(scope, loading);
    }
    const highest = await loading;
    this.loading.delete(scope);
    // Concurrent callers may have advanced the hint while we waited.
    const hint = Math.max(highest, this.hints.get(scope) ?? 0);
    this.hints.set(scope, hint);
    return hint;
  }

  /** The bucket's window is now `window`: the hints of its previous window are no longer needed. */
  private enterWindow(bucket: string, window: WindowRecord): void {
    const previous = this.windows.get(bucket);
    if (previous && previous.seq !== window.seq) this.forget(`b:${bucket}:${previous.seq}`);
    this.windows.set(bucket, window);
  }

  private enterUsageScope(bucket: string, scope: string): void {
    const previous = this.usageScopes.get(bucket);
    if (previous === scope) return;
    if (previous) this.forget(previous);
    this.usageScopes.set(bucket, scope);
  }

  private forget(scope: string): void {
    this.hints.delete(scope);
    this.freed.delete(scope);
    this.full.delete(scope);
  }

  private forgetAll(): void {
    for (const map of [this.windows, this.hints, this.freed, this.full, this.usageScopes]) map.clear();
  }

  /** Every slot of `scope` was recently found taken under a limit at least `limit`, and this process has none to give back. */
  private knownFull(scope: string, limit: number, now: Date): boolean {
    const full = this.full.get(scope);
    if (!full || limit > full.limit || (this.freed.get(scope)?.size ?? 0) > 0) return false;
    if (now.getTime() - full.at < FULL_RECHECK_MS) return true;
    this.full.delete(scope);
    return false;
  }

  /** Calls counted in `scope` as far as this process knows: the highest slot taken minus the holes it left. */
  private async count(scope: string): Promise<number> {
    return (await this.hint(scope)) - (this.freed.get(scope)?.size ?? 0);
  }

  /**
   * Gives slot k back. The next claim in this process re-uses it, so the counts this process
   * reports stay exact (a refunded call is not counted, and the next call is the next number).
   */
  private async release(scope: string, k: number): Promise<void> {
    await this.store.releaseSlot(scope, k);
    const hint = this.hints.get(scope);
    if (hint === undefined || k > hint) return;
    let freed = this.freed.get(scope);
    if (!freed) this.freed.set(scope, (freed = new Set()));
    freed.add(k);
    // Holes at the top are not holes: lower the hint instead.
    let top = hint;
    while (freed.has(top)) freed.delete(top--);
    this.hints.set(scope, top);
    if (freed.size === 0) this.freed.delete(scope);
  }

  /**
   * Picks the slot this process tries next for `scope`, synchronously (so concurrent calls in
   * one process never pick the same one): a slot it gave back, else the one above the highest it
   * knows of. null when, as far as this process knows, all `limit` slots are taken. The hint of
   * `scope` must be loaded.
   */
  private reserve(scope: string, limit: number): Reservation | null {
    const freed = this.freed.get(scope);
    while (freed && freed.size > 0) {
      const k = Math.min(...freed);
      freed.delete(k);
      if (freed.size === 0) this.freed.delete(scope);
      if (k <= limit) return { k, reused: true };
    }
    const k = (this.hints.get(scope) ?? 0) + 1;
    if (k > limit) return null;
    this.hints.set(scope, k);
    return { k, reused: false };
  }

  /** The number of calls `scope` holds with the one just given slot k, as far as this process knows. */
  private countWith(scope: string, reservation: Reservation): number {
    const freed = this.freed.get(scope);
    if (reservation.reused) return (this.hints.get(scope) ?? reservation.k) - (freed?.size ?? 0);
    let holesBelow = 0;
    for (const f of freed ?? []) if (f < reservation.k) holesBelow++;
    return reservation.k - holesBelow;
  }

  /**
   * Claims a slot of `scope`, or null when all `limit` slots are taken: the reserved slot if
   * given, then further reservations (re-estimating the hint from the store when other
   * processes are ahead), then any hole another process left. Only the unique insert decides;
   * the hints merely make the first try likely to succeed.
   */
  private async claim(scope: string, limit: number, now: Date, expiresAt: Date, reserved?: Reservation | null): Promise<Claimed | null> {
    await this.hint(scope);
    let misses = 0;
    let next = reserved === undefined ? undefined : reserved;
    for (;;) {
      if (next === undefined) {
        if (this.knownFull(scope, limit, now)) return null;
        next = this.reserve(scope, limit);
      }
      if (next === null) break;
      const reservation = next;
      next = undefined;
      if (await this.store.claimSlot(scope, reservation.k, expiresAt)) return { slot: reservation.k, count: this.countWith(scope, reservation) };
      // Taken by another process: the hint is behind. Catch up by a search rather than one slot at a time.
      if (!reservation.reused && ++misses >= MISSES_BEFORE_REESTIMATE) {
        misses = 0;
        const highest = await this.store.highestSlot(scope, reservation.k);
        this.hints.set(scope, Math.max(this.hints.get(scope) ?? 0, highest));
      }
    }
    const taken = await this.store.takenSlots(scope);
    if (taken.length >= limit) {
      this.full.set(scope, { at: now.getTime(), limit });
      return null;
    }
    const takenSet = new Set(taken);
    for (let k = 1; k <= limit; k++) {
      if (!takenSet.has(k) && (await this.store.claimSlot(scope, k, expiresAt))) {
        const highest = taken.reduce((a, b) => (b > a ? b : a), k);
        this.hints.set(scope, Math.max(this.hints.get(scope) ?? 0, highest));
        return { slot: k, count: taken.length + 1 };
      }
    }
    return null;
  }
}

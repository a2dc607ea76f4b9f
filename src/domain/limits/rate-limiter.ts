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
  highestSlot(scope: string): Promise<number>;
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

/** A rejected call: the error for the body, the state for the headers. */
export class LimitRejection extends Error {
  constructor(readonly error: BurstLimitError | QuotaExceededError, readonly state: LimitState) {
    super(error.message);
  }
}

const BURST_SLOT_GRACE_MS = 60_000;
const USAGE_RETENTION_MS = 90 * 24 * 3600 * 1000;
/** How long a process trusts its own "quota is exhausted" finding before looking again. */
const EXHAUSTED_RECHECK_MS = 60_000;

export class RateLimiter {
  private readonly windows = new Map<string, WindowRecord>();
  private readonly hints = new Map<string, number>();
  private readonly exhausted = new Map<string, number>();
  private readonly loading = new Map<string, Promise<number>>();

  constructor(private readonly store: SlotStore, private readonly clock: () => Date = () => new Date()) {}

  async admit(policy: LimitPolicy): Promise<Admission> {
    const now = this.clock();
    const period = billingPeriodAt(now);
    const usageScope = `u:${policy.bucket}:${period.id}`;
    const window = await this.currentWindow(policy.bucket, now);
    const burstScope = `b:${policy.bucket}:${window.seq}`;
    const stateWith = (burstTaken: number, used: number): LimitState => ({
      burstLimit: policy.burstLimit,
      burstRemaining: Math.max(0, policy.burstLimit - burstTaken),
      burstResetAt: window.end,
      quotaUsed: used,
      quotaLimit: policy.quotaLimit,
    });
    const quotaRejection = async (burstTaken: number) =>
      new LimitRejection(
        new QuotaExceededError(policy.quotaLimit, policy.quotaLimit, period.end, secondsUntil(period.end, now)),
        stateWith(burstTaken, await this.hint(usageScope)),
      );

    // Exhaustion is monotonic within a period, so a recent finding answers without a claim.
    const exhaustedAt = this.exhausted.get(usageScope);
    if (exhaustedAt !== undefined && now.getTime() - exhaustedAt < EXHAUSTED_RECHECK_MS) {
      throw await quotaRejection(await this.hint(burstScope));
    }

    const burstSlot = await this.claim(burstScope, policy.burstLimit, new Date(window.end.getTime() + BURST_SLOT_GRACE_MS));
    if (burstSlot === null) {
      throw new LimitRejection(new BurstLimitError(secondsUntil(window.end, now)), stateWith(policy.burstLimit, await this.hint(usageScope)));
    }
    const usageSlot = await this.claim(usageScope, policy.quotaLimit, new Date(period.end.getTime() + USAGE_RETENTION_MS));
    if (usageSlot === null) {
      this.exhausted.set(usageScope, now.getTime());
      await this.store.releaseSlot(burstScope, burstSlot);
      throw await quotaRejection(burstSlot - 1);
    }
    return {
      state: stateWith(burstSlot, usageSlot),
      release: async () => {
        await Promise.all([this.store.releaseSlot(burstScope, burstSlot), this.store.releaseSlot(usageScope, usageSlot)]);
      },
    };
  }

  /** Calls counted in the current billing period (for the dashboard). */
  async usage(bucket: string): Promise<number> {
    return this.store.highestSlot(`u:${bucket}:${billingPeriodAt(this.clock()).id}`);
  }

  private async currentWindow(bucket: string, now: Date): Promise<WindowRecord> {
    const cached = this.windows.get(bucket);
    if (cached && now < cached.end) return cached;
    for (;;) {
      const latest = await this.store.latestWindow(bucket);
      if (latest && now < latest.end && now >= latest.start) {
        this.windows.set(bucket, latest);
        return latest;
      }
      // The previous window has ended: this call opens the next one, unless another process just did.
      const next: WindowRecord = { seq: (latest?.seq ?? 0) + 1, start: now, end: new Date(now.getTime() + BURST_WINDOW_MS) };
      if (await this.store.createWindow(bucket, next, new Date(next.end.getTime() + 24 * 3600 * 1000))) {
        this.windows.set(bucket, next);
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

  /**
   * Claims the next slot above what this process has handed out (concurrent calls in one
   * process try distinct slots), then, when the window looks full, any hole a release left.
   */
  private async claim(scope: string, limit: number, expiresAt: Date): Promise<number | null> {
    await this.hint(scope);
    for (;;) {
      const k = (this.hints.get(scope) ?? 0) + 1;
      if (k > limit) break;
      this.hints.set(scope, k);
      if (await this.store.claimSlot(scope, k, expiresAt)) return k;
    }
    const taken = await this.store.takenSlots(scope);
    if (taken.length >= limit) return null;
    const takenSet = new Set(taken);
    for (let k = 1; k <= limit; k++) {
      if (!takenSet.has(k) && (await this.store.claimSlot(scope, k, expiresAt))) return k;
    }
    return null;
  }
}

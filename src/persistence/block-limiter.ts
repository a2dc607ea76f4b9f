import { SingleFlight } from '../infra/single-flight';
import type { Clock } from '../domain/clock';
import { burstLimitExceeded, quotaExceeded } from '../domain/errors';
import { Admission, LimitAdmitter, LimitPolicy, LimitRejection, LimitState } from '../domain/limits/admission';
import { BillingPeriod, billingPeriodAt, secondsUntil } from '../domain/limits/billing-period';
import { BurstWindow, isCurrent, windowFrom } from '../domain/limits/burst-window';
import type { LimitUsage } from './limit-usage';
import type { LimitWindows } from './limit-windows';

const MAX_BLOCK = 64;
/** A block holds this many seconds of the process's recent calls: a bucket called a few times a second takes a block every few seconds, not every second. */
const BLOCK_SECONDS = 4;
/** A block takes at most this share of what is left of a limit, so near the limit blocks shrink to single calls. */
const EDGE_SHARE = 8;
/** A block is at most this share of the limit: a process killed unshut strands at most 1 % of it. */
const LIMIT_SHARE = 100;
/** Calls held unused this long (no call of the scope in this process) are given back to the store: long enough that a bucket called every second or two keeps its block, rather than give it back and take it again at each call. */
export const IDLE_RETURN_MS = 5_000;
/** How long a process trusts its finding that a limit is used up before reading the count again. */
const RECHECK_MS = 1_000;
/** Past this many scopes the per-process state is dropped (blocks held then are lost until their scope ends: never over-admits). */
const MAX_TRACKED_SCOPES = 50_000;

const burstKey = (bucket: string, window: BurstWindow): string => `b:${bucket}:${window.start.getTime()}`;
const usageKey = (bucket: string, periodId: string): string => `u:${bucket}:${periodId}`;

/** A count in the store: adds `delta` calls (negative: gives them back), answering the count after; null when the window has been replaced. */
type AddTo = (delta: number) => Promise<number | null>;

/** What the headers say: `burstCount` calls of the window and `used` of the period counted. */
function limitState(policy: LimitPolicy, window: BurstWindow, burstCount: number, used: number): LimitState {
  return {
    burstLimit: policy.burstLimit,
    burstRemaining: Math.max(0, policy.burstLimit - burstCount),
    burstResetAt: window.end,
    // Without usage counts (anonymous callers), the calls of the window are the only count there is.
    quotaUsed: used,
    quotaLimit: policy.quotaLimit,
  };
}

/** One burst window or billing period of a bucket, as this process knows it. */
class Scope {
  /** The count the store last answered this process, its own takes included. */
  count = 0;
  /** Positions (1-based counts) of calls this process took, not yet handed out: ascending. */
  pool: number[] = [];
  /** Calls of the give-back in flight: no longer in the pool, maybe still in `count`. */
  returning = 0;
  /** The one store operation (take, give-back, read) this process has in flight on the scope. */
  busy: Promise<void> | null = null;
  /** Another process opened the bucket's next window (its clock saw this one end): nothing more is taken of it. */
  replaced = false;
  waiting = 0;
  lastSize = 0;
  lastUsed = 0;
  full: { at: number; limit: number } | null = null;
  private second = 0;
  private taken = 0;
  private takenBefore = 0;

  /** `endsAt`: when the window or period ends (nothing held is worth giving back after it). */
  constructor(readonly key: string, readonly add: AddTo, readonly endsAt: Date) {}

  counted(): number {
    return this.count - this.pool.length - this.returning;
  }

  hasUsable(limit: number): boolean {
    return this.pool.length > 0 && this.pool[0] <= limit;
  }

  put(position: number): void {
    let i = this.pool.length;
    while (i > 0 && this.pool[i - 1] > position) i--;
    this.pool.splice(i, 0, position);
  }

  noteTaken(now: number): void {
    this.lastUsed = now;
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      this.takenBefore = second === this.second + 1 ? this.taken : 0;
      this.second = second;
      this.taken = 0;
    }
    this.taken++;
  }

  /** Calls a second this process has been handing out lately: a block holds BLOCK_SECONDS of them. */
  rate(): number {
    return Math.max(this.takenBefore, this.taken);
  }
}

/** One admitted call: its positions in the burst window and (counted calls) the billing period. */
class HeldAdmission implements Admission {
  constructor(
    private readonly scopes: ReadonlyMap<string, Scope>,
    readonly state: LimitState,
    private readonly burst: Scope,
    private readonly burstPosition: number,
    private readonly usage: Scope | null,
    private readonly usagePosition: number | null,
  ) {}

  /** A function made when asked for (rarely: a 5xx), not per call; taken apart from the admission, it still gives back this call. */
  get release(): () => Promise<void> {
    return async () => {
      // Put back here, handed to this process's next call (so its numbers stay those of a call that never happened), or given back when idle.
      if (this.scopes.get(this.burst.key) === this.burst) this.burst.put(this.burstPosition);
      if (this.usage && this.usagePosition !== null && this.scopes.get(this.usage.key) === this.usage) this.usage.put(this.usagePosition);
    };
  }
}

/**
 * Exact limits across API processes with one counter per burst window and per billing period
 * (docs/keys-limits-errors.md): a process takes a block of calls with one `$inc`, hands them out
 * without a round trip, and gives back at once what a take found over the limit.
 */
export class BlockLimiter implements LimitAdmitter {
  private readonly scopes = new Map<string, Scope>();
  private readonly windows = new Map<string, BurstWindow>();
  private readonly opening = new SingleFlight<string, BurstWindow>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly windowCounts: Pick<LimitWindows, 'current' | 'add'>,
    private readonly usageCounts: Pick<LimitUsage, 'add' | 'count'>,
    private readonly clock: Clock,
  ) {
    this.sweeper = setInterval(() => void this.returnIdle(), IDLE_RETURN_MS / 2);
    this.sweeper.unref();
  }

  async admit(policy: LimitPolicy): Promise<Admission> {
    const now = this.clock();
    const period = billingPeriodAt(now);
    if (this.scopes.size > MAX_TRACKED_SCOPES) this.scopes.clear();
    const window = await this.currentWindow(policy.bucket, now);
    const burst = this.burstScope(policy.bucket, window);
    const usage = policy.countUsage ? this.usageScope(policy.bucket, period) : null;
    const stateWith = (burstCount: number, used: number): LimitState => limitState(policy, window, burstCount, used);
    const quotaRejection = () => {
      // At least the limit: this process may not yet have seen every call another one was granted.
      const used = Math.max(policy.quotaLimit, usage?.counted() ?? 0);
      return new LimitRejection(quotaExceeded(policy.quotaLimit, used, period.end, secondsUntil(period.end, now)), stateWith(burst.counted(), used));
    };
    const burstRejection = () =>
      // A concurrent call may have opened the window a moment after this call's clock reading.
      new LimitRejection(
        burstLimitExceeded(secondsUntil(window.end, now < window.start ? window.start : now)),
        stateWith(policy.burstLimit, usage ? usage.counted() : policy.burstLimit),
      );

    // A call refused by either limit is counted in neither: the burst position is taken first,
    // the usage position only for a call the burst admits (its take, when needed, already under way).
    if (usage && this.knownFull(usage, policy.quotaLimit, now)) throw quotaRejection();
    if (usage && !usage.hasUsable(policy.quotaLimit) && !this.knownFull(burst, policy.burstLimit, now)) {
      this.refill(usage, policy.quotaLimit, now).catch(() => undefined /* the take below meets the error */);
    }
    const b = await this.take(burst, policy.burstLimit, now);
    if (b === null && burst.replaced) {
      // The bucket's next window is open in the store: this call counts in it.
      this.scopes.delete(burst.key);
      if (this.windows.get(policy.bucket) === window) this.windows.delete(policy.bucket);
      return this.admit(policy);
    }
    if (b === null) throw burstRejection();
    let usagePosition: number | null = null;
    if (usage) {
      try {
        usagePosition = await this.take(usage, policy.quotaLimit, now);
      } finally {
        if (usagePosition === null) burst.put(b);
      }
      if (usagePosition === null) throw quotaRejection();
    }
    return new HeldAdmission(this.scopes, stateWith(b, usagePosition ?? b), burst, b, usage, usagePosition);
  }

  admitNow(policy: LimitPolicy): Admission | Promise<Admission> {
    const now = this.clock();
    const window = this.windows.get(policy.bucket);
    if (!window || !isCurrent(window, now)) return this.admit(policy);
    const burst = this.scopes.get(burstKey(policy.bucket, window));
    const usage = policy.countUsage ? this.scopes.get(usageKey(policy.bucket, billingPeriodAt(now).id)) : null;
    // What `admit` does when this process holds a position of each limit: taken here, without a promise.
    if (!burst?.hasUsable(policy.burstLimit) || usage === undefined || (usage && !usage.hasUsable(policy.quotaLimit))) return this.admit(policy);
    const b = this.handOut(burst, policy.burstLimit, now);
    const u = usage && this.handOut(usage, policy.quotaLimit, now);
    return new HeldAdmission(this.scopes, limitState(policy, window, b, u ?? b), burst, b, usage, u);
  }

  peek(policy: LimitPolicy): LimitState | null {
    const now = this.clock();
    const window = this.windows.get(policy.bucket);
    if (!window || !isCurrent(window, now)) return null;
    const burst = this.scopes.get(burstKey(policy.bucket, window));
    const usage = policy.countUsage ? this.scopes.get(usageKey(policy.bucket, billingPeriodAt(now).id)) : undefined;
    if (!burst || (policy.countUsage && !usage)) return null;
    return limitState(policy, window, burst.counted(), usage ? usage.counted() : burst.counted());
  }

  async usage(bucket: string): Promise<number> {
    const period = billingPeriodAt(this.clock());
    const scope = this.scopes.get(usageKey(bucket, period.id));
    if (!scope) return this.usageCounts.count(bucket, period);
    // Read between this process's own takes and give-backs, so that the calls it holds are subtracted exactly once.
    await this.exclusive(scope, async () => void (await this.add(scope, 0)));
    return scope.counted();
  }

  /** Gives back every call this process holds (at shutdown), so that other processes can use them at once. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const now = this.clock().getTime();
    const open = [...this.scopes.values()].filter((scope) => scope.endsAt.getTime() > now);
    await Promise.all(open.map((scope) => this.giveBack(scope).catch(() => undefined)));
  }

  async returnIdle(): Promise<void> {
    const now = this.clock().getTime();
    const returns: Promise<void>[] = [];
    for (const scope of this.scopes.values()) {
      if (scope.endsAt.getTime() <= now && !scope.busy) this.scopes.delete(scope.key);
      else if (scope.pool.length > 0 && !scope.busy && now - scope.lastUsed >= IDLE_RETURN_MS) returns.push(this.giveBack(scope).catch(() => undefined));
    }
    await Promise.all(returns);
  }

  private scope(key: string, add: AddTo, endsAt: Date): Scope {
    let scope = this.scopes.get(key);
    if (!scope) this.scopes.set(key, (scope = new Scope(key, add, endsAt)));
    return scope;
  }

  private burstScope(bucket: string, window: BurstWindow): Scope {
    return this.scope(burstKey(bucket, window), (delta) => this.windowCounts.add(bucket, window, delta), window.end);
  }

  private usageScope(bucket: string, period: BillingPeriod): Scope {
    return this.scope(usageKey(bucket, period.id), (delta) => this.usageCounts.add(bucket, period, delta), period.end);
  }

  /** A position of `scope` for one call, or null when `limit` calls are taken and none is held here (or the window was replaced). */
  private async take(scope: Scope, limit: number, now: Date): Promise<number | null> {
    for (;;) {
      if (scope.hasUsable(limit)) return this.handOut(scope, limit, now);
      if (scope.replaced || this.knownFull(scope, limit, now)) return null;
      scope.waiting++;
      try {
        await this.refill(scope, limit, now);
      } finally {
        scope.waiting--;
      }
    }
  }

  /** The first position this process holds of `scope` (hasUsable), for one call. */
  private handOut(scope: Scope, limit: number, now: Date): number {
    const position = scope.pool.shift()!;
    scope.noteTaken(now.getTime());
    // Take the next block before this one runs out, off the calls' path (not near the limit, where blocks are single calls).
    if (!scope.busy && scope.lastSize > 1 && scope.pool.length <= scope.lastSize / 4) {
      this.refill(scope, limit, now).catch(() => undefined /* the next call that needs the block meets the error */);
    }
    return position;
  }

  /** Every call of `scope` was recently found taken under a limit at least `limit`, and none is held here. */
  private knownFull(scope: Scope, limit: number, now: Date): boolean {
    const full = scope.full;
    if (!full || limit > full.limit || scope.hasUsable(limit)) return false;
    return now.getTime() - full.at < RECHECK_MS;
  }

  /** The store operation in flight on `scope`, or a new take. */
  private refill(scope: Scope, limit: number, now: Date): Promise<void> {
    return scope.busy ?? this.run(scope, () => this.claim(scope, limit, now));
  }

  /** Runs `op` as the scope's one store operation in flight, once the one under way has ended. */
  private async exclusive(scope: Scope, op: () => Promise<void>): Promise<void> {
    while (scope.busy) await scope.busy.catch(() => undefined);
    return this.run(scope, op);
  }

  private run(scope: Scope, op: () => Promise<void>): Promise<void> {
    const busy: Promise<void> = op().finally(() => {
      if (scope.busy === busy) scope.busy = null;
    });
    scope.busy = busy;
    return busy;
  }

  /** Takes a block with one `$inc` and gives back at once what it found over the limit (other processes took meanwhile). */
  private async claim(scope: Scope, limit: number, now: Date): Promise<void> {
    // Found used up before: read the count again (calls may have been given back), adding nothing.
    if (scope.count >= limit && !(await this.add(scope, 0))) return;
    const left = limit - scope.count;
    if (left <= 0) {
      scope.full = { at: now.getTime(), limit };
      return;
    }
    const edge = Number.isFinite(left) ? Math.max(1, Math.floor(left / EDGE_SHARE)) : MAX_BLOCK;
    const share = Number.isFinite(limit) ? Math.max(1, Math.floor(limit / LIMIT_SHARE)) : MAX_BLOCK;
    const size = Math.min(left, edge, share, MAX_BLOCK, Math.max(1, scope.waiting, scope.rate() * BLOCK_SECONDS));
    if (!(await this.add(scope, size))) return;
    const after = scope.count;
    const over = Math.min(size, Math.max(0, after - limit));
    scope.lastSize = size - over;
    scope.full = over === size ? { at: now.getTime(), limit } : null;
    for (let p = after - size + 1; p <= after - over; p++) scope.put(p);
    // After a failed give-back the calls stay taken in the store: lost to the bucket, never over-admitted.
    if (over > 0) await this.add(scope, -over);
  }

  private async giveBack(scope: Scope): Promise<void> {
    await this.exclusive(scope, async () => {
      const count = scope.pool.length;
      if (count === 0) return;
      scope.pool = [];
      scope.returning = count;
      try {
        await this.add(scope, -count);
      } finally {
        scope.returning = 0;
      }
    });
  }

  /** Adds `delta` calls to the scope's count in the store and notes the count after: false when its window was replaced. */
  private async add(scope: Scope, delta: number): Promise<boolean> {
    const after = await scope.add(delta);
    if (after === null) scope.replaced = true;
    else scope.count = after;
    return after !== null;
  }

  private async currentWindow(bucket: string, now: Date): Promise<BurstWindow> {
    const cached = this.windows.get(bucket);
    if (cached && isCurrent(cached, now)) return cached;
    // Concurrent calls of one bucket share one look-up (and opening) of the window.
    const window = await this.opening.run(bucket, () => this.windowCounts.current(bucket, windowFrom(now)));
    if (cached && cached.start.getTime() !== window.start.getTime()) this.scopes.delete(burstKey(bucket, cached));
    this.windows.set(bucket, window);
    if (this.windows.size > MAX_TRACKED_SCOPES) this.windows.clear();
    // A look-up this call joined may have begun before the window it found ended.
    return isCurrent(window, now) ? window : this.currentWindow(bucket, now);
  }
}

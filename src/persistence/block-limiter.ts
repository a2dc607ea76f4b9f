import { SingleFlight } from '../infra/single-flight';
import type { Clock } from '../domain/clock';
import { burstLimitExceeded, quotaExceeded } from '../domain/errors';
import { Admission, LimitAdmitter, LimitPolicy, LimitRejection, LimitState } from '../domain/limits/admission';
import { billingPeriodAt, secondsUntil } from '../domain/limits/billing-period';
import { BurstWindow, isCurrent, nextWindow } from '../domain/limits/burst-window';
import type { BlockEntry, LimitBlocks } from './limit-blocks';
import type { LimitWindows } from './limit-windows';

const MAX_BLOCK = 64;
/** A block holds this many seconds of the process's recent calls: a bucket called a few times a second appends every few seconds, not every second. */
const BLOCK_SECONDS = 4;
/** A block takes at most this share of what is left of a limit, so near the limit blocks shrink to single calls. */
const EDGE_SHARE = 8;
/** A block is at most this share of the limit: a process killed unshut strands at most 1 % of it. */
const LIMIT_SHARE = 100;
/** Calls held unused this long (no call of the scope in this process) are given back to the log. */
export const IDLE_RETURN_MS = 1_000;
/** How long a process trusts its finding that a limit is used up before reading the log again. */
const RECHECK_MS = 1_000;
const BURST_RETENTION_MS = 60_000;
const USAGE_RETENTION_MS = 90 * 24 * 3600 * 1000;
const WINDOW_RETENTION_MS = 24 * 3600 * 1000;
/** Past this many scopes the per-process state is dropped (blocks held then are lost until their scope ends: never over-admits). */
const MAX_TRACKED_SCOPES = 50_000;

const burstKey = (bucket: string, seq: number): string => `b:${bucket}:${seq}`;
const usageKey = (bucket: string, periodId: string): string => `u:${bucket}:${periodId}`;

/** What the headers say: `burstCount` calls of the window and `used` of the period counted. */
function limitState(policy: LimitPolicy, window: BurstWindow, burstCount: number, used: number): LimitState {
  return {
    burstLimit: policy.burstLimit,
    burstRemaining: Math.max(0, policy.burstLimit - burstCount),
    burstResetAt: window.end,
    // Without usage records (anonymous callers), the calls of the window are the only count there is.
    quotaUsed: used,
    quotaLimit: policy.quotaLimit,
  };
}

/** One burst window or billing period of a bucket, as this process knows it. */
class Scope {
  head: BlockEntry | null = null;
  /** Whether `head` must be (re-)read before the next append. */
  stale = true;
  /** Positions (1-based counts) of calls this process holds, claimed but not handed out: ascending. */
  pool: number[] = [];
  /** Calls of the give-back in flight: no longer in the pool, not yet off `head`. */
  returning = 0;
  /** The one append (claim or give-back) this process has in flight on the scope. */
  appending: Promise<void> | null = null;
  waiting = 0;
  lastSize = 0;
  lastUsed = 0;
  full: { at: number; limit: number } | null = null;
  private second = 0;
  private taken = 0;
  private takenBefore = 0;

  /** `endsAt`: when the window or period ends (nothing held is worth giving back after it); `expiresAt`: when its log may be purged. */
  constructor(readonly key: string, readonly endsAt: Date, readonly expiresAt: Date) {}

  get granted(): number {
    return this.head?.cum ?? 0;
  }

  counted(): number {
    return this.granted - this.pool.length - this.returning;
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

/** Exact limits across API processes by unique inserts only (docs/keys-limits-errors.md); a block's calls are handed out without a round trip. */
export class BlockLimiter implements LimitAdmitter {
  private readonly scopes = new Map<string, Scope>();
  private readonly windows = new Map<string, BurstWindow>();
  private readonly opening = new SingleFlight<string, BurstWindow>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly blocks: Pick<LimitBlocks, 'append' | 'latest'>,
    private readonly windowLog: Pick<LimitWindows, 'latestWindow' | 'createWindow'>,
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
    const usage = policy.countUsage ? this.scope(usageKey(policy.bucket, period.id), period.end, new Date(period.end.getTime() + USAGE_RETENTION_MS)) : null;
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
    // the usage position only for a call the burst admits (its claim, when needed, already under way).
    if (usage && this.knownFull(usage, policy.quotaLimit, now)) throw quotaRejection();
    if (usage && !usage.hasUsable(policy.quotaLimit) && !this.knownFull(burst, policy.burstLimit, now)) {
      this.refill(usage, policy.quotaLimit, now).catch(() => undefined /* the take below meets the error */);
    }
    const b = await this.take(burst, policy.burstLimit, now);
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
    const burst = this.scopes.get(burstKey(policy.bucket, window.seq));
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
    const burst = this.scopes.get(burstKey(policy.bucket, window.seq));
    const usage = policy.countUsage ? this.scopes.get(usageKey(policy.bucket, billingPeriodAt(now).id)) : undefined;
    if (!burst || (policy.countUsage && !usage)) return null;
    return limitState(policy, window, burst.counted(), usage ? usage.counted() : burst.counted());
  }

  async usage(bucket: string): Promise<number> {
    const key = usageKey(bucket, billingPeriodAt(this.clock()).id);
    const scope = this.scopes.get(key);
    if (!scope) return (await this.blocks.latest(key, null))?.cum ?? 0;
    const latest = await this.blocks.latest(key, scope.head);
    // An append of this process in flight sets the head itself, with its pool: a log read alone would count its block twice or not at all.
    if (!scope.appending && latest && latest.n > (scope.head?.n ?? 0)) scope.head = latest;
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
      if (scope.endsAt.getTime() <= now && !scope.appending) this.scopes.delete(scope.key);
      else if (scope.pool.length > 0 && !scope.appending && now - scope.lastUsed >= IDLE_RETURN_MS) returns.push(this.giveBack(scope).catch(() => undefined));
    }
    await Promise.all(returns);
  }

  private scope(key: string, endsAt: Date, expiresAt: Date): Scope {
    let scope = this.scopes.get(key);
    if (!scope) this.scopes.set(key, (scope = new Scope(key, endsAt, expiresAt)));
    return scope;
  }

  private burstScope(bucket: string, window: BurstWindow): Scope {
    return this.scope(burstKey(bucket, window.seq), window.end, new Date(window.end.getTime() + BURST_RETENTION_MS));
  }

  /** A position of `scope` for one call, or null when `limit` calls are granted and none is held here. */
  private async take(scope: Scope, limit: number, now: Date): Promise<number | null> {
    for (;;) {
      if (scope.hasUsable(limit)) return this.handOut(scope, limit, now);
      if (this.knownFull(scope, limit, now)) return null;
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
    // Claim the next block before this one runs out, off the calls' path (not near the limit, where blocks are single calls).
    if (!scope.appending && scope.lastSize > 1 && scope.pool.length <= scope.lastSize / 4) {
      this.refill(scope, limit, now).catch(() => undefined /* the next call that needs the block meets the error */);
    }
    return position;
  }

  /** Every call of `scope` was recently found granted under a limit at least `limit`, and none is held here. */
  private knownFull(scope: Scope, limit: number, now: Date): boolean {
    const full = scope.full;
    if (!full || limit > full.limit || scope.hasUsable(limit)) return false;
    return now.getTime() - full.at < RECHECK_MS;
  }

  private refill(scope: Scope, limit: number, now: Date): Promise<void> {
    if (!scope.appending) {
      const appending = this.claim(scope, limit, now).finally(() => {
        if (scope.appending === appending) scope.appending = null;
      });
      scope.appending = appending;
    }
    return scope.appending;
  }

  private async claim(scope: Scope, limit: number, now: Date): Promise<void> {
    if (scope.stale) await this.catchUp(scope);
    for (;;) {
      const left = limit - scope.granted;
      if (left <= 0) {
        scope.full = { at: now.getTime(), limit };
        scope.stale = true; // calls may be given back meanwhile: read the log before the next claim
        return;
      }
      const edge = Number.isFinite(left) ? Math.max(1, Math.floor(left / EDGE_SHARE)) : MAX_BLOCK;
      const share = Number.isFinite(limit) ? Math.max(1, Math.floor(limit / LIMIT_SHARE)) : MAX_BLOCK;
      const size = Math.min(left, edge, share, MAX_BLOCK, Math.max(1, scope.waiting, scope.rate() * BLOCK_SECONDS));
      const from = scope.granted + 1;
      if (await this.appendBlock(scope, size)) {
        scope.lastSize = size;
        for (let p = from; p <= scope.granted; p++) scope.put(p);
        return;
      }
      await this.catchUp(scope); // another process appended first
    }
  }

  private async giveBack(scope: Scope): Promise<void> {
    while (scope.appending) await scope.appending.catch(() => undefined);
    const count = scope.pool.length;
    if (count === 0) return;
    scope.pool = [];
    scope.returning = count;
    const appending = (async () => {
      for (;;) {
        if (scope.stale) await this.catchUp(scope);
        if (await this.appendBlock(scope, -count)) return;
        scope.stale = true;
      }
    })().finally(() => {
      // After a failed append the calls stay granted in the log (never re-handed out: the insert may have landed).
      scope.returning = 0;
      if (scope.appending === appending) scope.appending = null;
    });
    scope.appending = appending;
    await appending;
  }

  /** Appends `delta` calls (negative: given back) after the head this process knows: false when another process appended first. */
  private async appendBlock(scope: Scope, delta: number): Promise<boolean> {
    const entry: BlockEntry = { n: (scope.head?.n ?? 0) + 1, delta, cum: scope.granted + delta };
    if (!(await this.blocks.append(scope.key, entry, scope.expiresAt))) return false;
    scope.head = entry;
    scope.full = null;
    return true;
  }

  private async catchUp(scope: Scope): Promise<void> {
    scope.head = await this.blocks.latest(scope.key, scope.head);
    scope.stale = false;
  }

  private async currentWindow(bucket: string, now: Date): Promise<BurstWindow> {
    const cached = this.windows.get(bucket);
    if (cached && isCurrent(cached, now)) return cached;
    // Concurrent calls of one bucket share one look-up (and at most one insert) of the window.
    const window = await this.opening.run(bucket, () => this.openWindow(bucket, now));
    return isCurrent(window, now) ? window : this.currentWindow(bucket, now);
  }

  private async openWindow(bucket: string, now: Date): Promise<BurstWindow> {
    for (;;) {
      const latest = await this.windowLog.latestWindow(bucket);
      if (latest && isCurrent(latest, now)) return this.enterWindow(bucket, latest, false);
      // The previous window has ended: this call opens the next one, unless another process just did.
      const next = nextWindow(latest, now);
      if (await this.windowLog.createWindow(bucket, next, new Date(next.end.getTime() + WINDOW_RETENTION_MS))) return this.enterWindow(bucket, next, true);
    }
  }

  private enterWindow(bucket: string, window: BurstWindow, opened: boolean): BurstWindow {
    const previous = this.windows.get(bucket);
    if (previous && previous.seq !== window.seq) this.scopes.delete(burstKey(bucket, previous.seq));
    this.windows.set(bucket, window);
    // A window this process just opened has an empty log: no need to read it.
    if (opened) this.burstScope(bucket, window).stale = false;
    if (this.windows.size > MAX_TRACKED_SCOPES) this.windows.clear();
    return window;
  }
}

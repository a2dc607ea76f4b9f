import { SingleFlight } from '../infra/single-flight';
import type { Clock } from '../domain/clock';
import { burstLimitExceeded, quotaExceeded } from '../domain/errors';
import { Admission, LimitAdmitter, LimitPolicy, LimitRejection, LimitState } from '../domain/limits/admission';
import { billingPeriodAt, secondsUntil } from '../domain/limits/billing-period';
import { BurstWindow, isCurrent, windowFrom } from '../domain/limits/burst-window';
import type { LimitUsage } from './limit-usage';
import type { LimitWindows } from './limit-windows';

const MAX_BLOCK = 64;
/** Each block is this many times the calls kept of the last: a bucket that turns busy reaches full blocks in three takes. */
const GROWTH = 4;
/** A block takes at most this share of what is left of a limit, so near the limit blocks shrink to single calls. */
const EDGE_SHARE = 8;
/** A block is at most this share of the limit: a process killed unshut strands at most 2 % of it. */
const LIMIT_SHARE = 50;
/** Calls held unused this long (no call of the counter in this process) are given back to the store. */
export const IDLE_RETURN_MS = 5_000;
/** How long a process trusts its finding that a limit is used up before reading the count again. */
const RECHECK_MS = 1_000;

const ignore = () => undefined;

/** A counter in the store (a bucket's burst window or billing period) as this process holds it. */
class Counter {
  /** The count the store last answered this process, its own takes included. */
  count = 0;
  /** Calls this process took and has not handed out: the last of those `count` counts. */
  held = 0;
  lastUsed = 0;
  /** When the count was last found at its limit. */
  fullAt = Number.NEGATIVE_INFINITY;
  /** Another process opened the bucket's next window (its clock saw this one end): nothing more is taken of it. */
  replaced = false;
  /** This process's one store operation on the counter in flight. */
  private busy: Promise<void> | null = null;

  /** `store` adds calls (negative: gives them back) and answers the count after, null once the window is replaced. */
  constructor(
    private readonly store: (delta: number) => Promise<number | null>,
    readonly window: BurstWindow,
    /** Calls of the last block kept: the next block is GROWTH times as large (a bucket's next window goes on from its last). */
    public lastSize = 0,
  ) {}

  /** The calls counted but this process's held ones: the position of the last call it handed out. */
  counted(): number {
    return this.count - this.held;
  }

  usable(limit: number): boolean {
    return this.held > 0 && this.counted() < limit;
  }

  /** The count was found at `limit` less than RECHECK_MS ago, and no call is held here. */
  knownFull(limit: number, now: Date): boolean {
    return this.count >= limit && now.getTime() - this.fullAt < RECHECK_MS && !this.usable(limit);
  }

  /** A position for one call, or null when `limit` calls are taken and none is held here (or the window was replaced). */
  async take(limit: number, now: Date): Promise<number | null> {
    while (!this.usable(limit)) {
      if (this.replaced || this.knownFull(limit, now)) return null;
      await this.refill(limit, now);
    }
    return this.handOut(limit, now);
  }

  /** One of the calls held here (usable), for one call: its position. */
  handOut(limit: number, now: Date): number {
    this.held--;
    this.lastUsed = now.getTime();
    // Take the next block before this one runs out, off the calls' path (not near the limit, where blocks are single calls).
    if (!this.busy && this.lastSize > 1 && this.held <= this.lastSize / 4) {
      this.refill(limit, now).catch(ignore /* the next call that needs the block meets the error */);
    }
    return this.counted();
  }

  /** The store operation in flight, or a new take. */
  refill(limit: number, now: Date): Promise<void> {
    return this.busy ?? this.run(() => this.claim(limit, now));
  }

  /** The calls counted in the store but those held here, read between this process's own takes and give-backs. */
  async read(): Promise<number> {
    await this.exclusive(async () => void (await this.add(0)));
    return this.counted();
  }

  /** Gives back the calls held here (idle, or at shutdown), so that other processes can use them. */
  giveBack(): Promise<void> {
    return this.exclusive(async () => {
      const count = this.held;
      this.held = 0;
      this.lastSize = 0;
      if (count > 0) await this.add(-count);
    });
  }

  /** Runs `op` as the one store operation in flight, once the one under way has ended. */
  private async exclusive(op: () => Promise<void>): Promise<void> {
    while (this.busy) await this.busy.catch(ignore);
    return this.run(op);
  }

  private run(op: () => Promise<void>): Promise<void> {
    const busy: Promise<void> = op().finally(() => {
      if (this.busy === busy) this.busy = null;
    });
    this.busy = busy;
    return busy;
  }

  /** Takes a block with one `$inc` and gives back at once what it found over the limit (other processes took meanwhile). */
  private async claim(limit: number, now: Date): Promise<void> {
    // Found used up before: read the count again (calls may have been given back), adding nothing.
    if (this.count >= limit && !(await this.add(0))) return;
    const left = limit - this.count;
    if (left <= 0) {
      this.fullAt = now.getTime();
      return;
    }
    // Infinite limits leave only the block caps.
    const size = Math.min(left, MAX_BLOCK, Math.max(1, GROWTH * this.lastSize), Math.max(1, Math.floor(left / EDGE_SHARE)), Math.max(1, Math.floor(limit / LIMIT_SHARE)));
    if (!(await this.add(size))) return;
    const after = this.count;
    const over = Math.min(size, Math.max(0, after - limit));
    this.lastSize = size - over;
    this.held += size - over;
    if (after >= limit) this.fullAt = now.getTime();
    // After a failed give-back the calls stay taken in the store: lost to the bucket, never over-admitted.
    if (over > 0) await this.add(-over);
  }

  /** Adds `delta` calls to the count in the store and notes the count after: false when the window was replaced. */
  private async add(delta: number): Promise<boolean> {
    const after = await this.store(delta);
    if (after === null) this.replaced = true;
    else this.count = after;
    return after !== null;
  }
}

/** What the headers say: `burstCount` calls of the window and `used` of the period counted. */
function limitState(policy: LimitPolicy, burst: Counter, burstCount: number, used: number): LimitState {
  return {
    burstLimit: policy.burstLimit,
    burstRemaining: Math.max(0, policy.burstLimit - burstCount),
    burstResetAt: burst.window.end,
    // Without usage counts (anonymous callers), the calls of the window are the only count there is.
    quotaUsed: used,
    quotaLimit: policy.quotaLimit,
  };
}

/** One admitted call, of the burst window and (counted calls) the billing period. */
class HeldAdmission implements Admission {
  constructor(
    readonly state: LimitState,
    private readonly burst: Counter,
    private readonly usage: Counter | null,
  ) {}

  /** Puts the call back, handed to this process's next call (which then gets its numbers), or given back when idle. */
  async release(): Promise<void> {
    this.burst.held++;
    if (this.usage) this.usage.held++;
  }
}

/**
 * Exact limits across API processes with one counter per burst window and per billing period
 * (docs/keys-limits-errors.md): a process takes a block of calls with one `$inc`, hands them out
 * without a round trip, and gives back at once what a take found over the limit.
 */
export class BlockLimiter implements LimitAdmitter {
  /** Each bucket's current burst window; its billing periods by `<bucket>#<period>`. */
  private readonly bursts = new Map<string, Counter>();
  private readonly periods = new Map<string, Counter>();
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
    return this.admitNow(policy);
  }

  admitNow(policy: LimitPolicy): Admission | Promise<Admission> {
    const now = this.clock();
    const burst = this.bursts.get(policy.bucket);
    const usage = policy.countUsage ? this.usageCounter(policy.bucket, now) : null;
    // Nearly every call: this process holds a position of each limit, and hands them out without a promise.
    if (!burst || !isCurrent(burst.window, now) || !burst.usable(policy.burstLimit) || (usage && !usage.usable(policy.quotaLimit))) {
      return this.admitFromStore(policy, now);
    }
    const b = burst.handOut(policy.burstLimit, now);
    const u = usage ? usage.handOut(policy.quotaLimit, now) : b;
    return new HeldAdmission(limitState(policy, burst, b, u), burst, usage);
  }

  peek(policy: LimitPolicy): LimitState | null {
    const now = this.clock();
    const burst = this.bursts.get(policy.bucket);
    const usage = policy.countUsage ? this.periods.get(`${policy.bucket}#${billingPeriodAt(now).id}`) : null;
    if (!burst || !isCurrent(burst.window, now) || usage === undefined) return null;
    return limitState(policy, burst, burst.counted(), (usage ?? burst).counted());
  }

  async usage(bucket: string): Promise<number> {
    const period = billingPeriodAt(this.clock());
    const counter = this.periods.get(`${bucket}#${period.id}`);
    return counter ? counter.read() : this.usageCounts.count(bucket, period);
  }

  /** Gives back every call this process holds (at shutdown), so that other processes can use them at once. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const counters = [...this.bursts.values(), ...this.periods.values()];
    await Promise.all(counters.map((counter) => counter.giveBack().catch(ignore)));
  }

  /** Forgets the counters that have ended, and gives back the calls of those idle for IDLE_RETURN_MS. */
  async returnIdle(): Promise<void> {
    const now = this.clock();
    const returns: Promise<void>[] = [];
    for (const counters of [this.bursts, this.periods]) {
      for (const [key, counter] of counters) {
        if (!isCurrent(counter.window, now)) counters.delete(key);
        else if (counter.held > 0 && now.getTime() - counter.lastUsed >= IDLE_RETURN_MS) returns.push(counter.giveBack().catch(ignore));
      }
    }
    await Promise.all(returns);
  }

  private async admitFromStore(policy: LimitPolicy, now: Date): Promise<Admission> {
    const period = billingPeriodAt(now);
    const burst = await this.burstCounter(policy.bucket, now);
    const usage = policy.countUsage ? this.usageCounter(policy.bucket, now) : null;
    const quotaRejection = () => {
      // At least the limit: this process may not yet have seen every call another one was granted.
      const used = Math.max(policy.quotaLimit, usage?.counted() ?? 0);
      return new LimitRejection(quotaExceeded(policy.quotaLimit, used, period.end, secondsUntil(period.end, now)), limitState(policy, burst, burst.counted(), used));
    };
    // A call refused by either limit is counted in neither: the burst position is taken first,
    // the usage position only for a call the burst admits (its take, when needed, already under way).
    if (usage?.knownFull(policy.quotaLimit, now)) throw quotaRejection();
    if (usage && !usage.usable(policy.quotaLimit) && !burst.knownFull(policy.burstLimit, now)) {
      usage.refill(policy.quotaLimit, now).catch(ignore /* the take below meets the error */);
    }
    const b = await burst.take(policy.burstLimit, now);
    if (b === null && burst.replaced) {
      // The bucket's next window is open in the store: this call counts in it.
      if (this.bursts.get(policy.bucket) === burst) this.bursts.delete(policy.bucket);
      return this.admitFromStore(policy, now);
    }
    if (b === null) {
      // A concurrent call may have opened the window a moment after this call's clock reading.
      const retryAfter = secondsUntil(burst.window.end, now < burst.window.start ? burst.window.start : now);
      throw new LimitRejection(burstLimitExceeded(retryAfter), limitState(policy, burst, policy.burstLimit, (usage ?? burst).counted()));
    }
    if (!usage) return new HeldAdmission(limitState(policy, burst, b, b), burst, null);
    // Refused or failed, the call's burst position is put back.
    const u = await usage.take(policy.quotaLimit, now).catch((err: unknown) => {
      burst.held++;
      throw err;
    });
    if (u === null) {
      burst.held++;
      throw quotaRejection();
    }
    return new HeldAdmission(limitState(policy, burst, b, u), burst, usage);
  }

  private async burstCounter(bucket: string, now: Date): Promise<Counter> {
    const known = this.bursts.get(bucket);
    if (known && isCurrent(known.window, now)) return known;
    // Concurrent calls of one bucket share one look-up (and opening) of the window.
    const window = await this.opening.run(bucket, () => this.windowCounts.current(bucket, windowFrom(now)));
    let counter = this.bursts.get(bucket);
    if (counter?.window.start.getTime() !== window.start.getTime()) {
      counter = new Counter((delta) => this.windowCounts.add(bucket, window, delta), window, counter?.lastSize);
      this.bursts.set(bucket, counter);
    }
    // A look-up this call joined may have begun before the window it found ended.
    return isCurrent(window, now) ? counter : this.burstCounter(bucket, now);
  }

  private usageCounter(bucket: string, now: Date): Counter {
    const period = billingPeriodAt(now);
    const key = `${bucket}#${period.id}`;
    let counter = this.periods.get(key);
    if (!counter) {
      counter = new Counter((delta) => this.usageCounts.add(bucket, period, delta), { start: now, end: period.end });
      this.periods.set(key, counter);
    }
    return counter;
  }
}

import { httpHeadersOf } from '../../../src/transport/http/error-status';
import { Admission, LimitPolicy, LimitRejection } from '../../../src/domain/limits/admission';
import type { BillingPeriod } from '../../../src/domain/limits/billing-period';
import type { BurstWindow } from '../../../src/domain/limits/burst-window';
import { BlockLimiter, IDLE_RETURN_MS } from '../../../src/persistence/block-limiter';

/** One `add` a limiter sent: the count's key (`b:<bucket>` or `u:<bucket>#<period>`), the calls added (negative: given back), the count after. */
interface Add {
  key: string;
  delta: number;
  after: number;
}

/**
 * In-memory counts with the one guarantee the limiter relies on: each `add` (and each window
 * opening) is atomic. Every operation yields to the event loop first, so concurrent admissions
 * (and "processes": several limiters on one store) interleave.
 */
class MemoryStore {
  readonly windows = new Map<string, { window: BurstWindow; n: number }>();
  readonly periods = new Map<string, number>();
  readonly adds: Add[] = [];
  reads = 0;
  opens = 0;
  /** Awaited before an add lands, and after it landed (before it answers): lets a test hold one there. */
  beforeAdd?: (key: string, delta: number) => Promise<void>;
  afterAdd?: (key: string, delta: number) => Promise<void>;
  /** Called before a window look-up lands: lets a test make "another process" open the window first. */
  beforeOpen?: (bucket: string, next: BurstWindow) => void;

  private tick = () => new Promise<void>((resolve) => setImmediate(resolve));

  readonly windowCounts = {
    current: async (bucket: string, next: BurstWindow): Promise<BurstWindow> => {
      this.opens++;
      await this.tick();
      this.beforeOpen?.(bucket, next);
      const open = this.windows.get(bucket);
      if (open && open.window.end > next.start) return open.window;
      this.windows.set(bucket, { window: next, n: 0 });
      return next;
    },
    add: (bucket: string, window: BurstWindow, delta: number): Promise<number | null> =>
      this.add(`b:${bucket}`, delta, () => {
        const open = this.windows.get(bucket);
        return open && open.window.start.getTime() === window.start.getTime() ? { get: () => open.n, set: (n: number) => (open.n = n) } : null;
      }),
  };

  readonly usageCounts = {
    add: async (bucket: string, period: BillingPeriod, delta: number): Promise<number> => {
      const key = `u:${bucket}#${period.id}`;
      return (await this.add(key, delta, () => ({ get: () => this.periods.get(key) ?? 0, set: (n: number) => this.periods.set(key, n) })))!;
    },
    count: async (bucket: string, period: BillingPeriod): Promise<number> => {
      this.reads++;
      await this.tick();
      return this.periods.get(`u:${bucket}#${period.id}`) ?? 0;
    },
  };

  /** The burst window count of `bucket` in the store. */
  burstCount(bucket: string): number | undefined {
    return this.windows.get(bucket)?.n;
  }

  takes(prefix: string): Add[] {
    return this.adds.filter((a) => a.key.startsWith(prefix) && a.delta > 0);
  }

  operations(): number {
    return this.adds.length + this.reads + this.opens;
  }

  private async add(key: string, delta: number, count: () => { get(): number; set(n: number): void } | null): Promise<number | null> {
    await this.tick();
    await this.beforeAdd?.(key, delta);
    const target = count();
    if (!target) return null;
    const after = target.get() + delta;
    target.set(after);
    this.adds.push({ key, delta, after });
    await this.afterAdd?.(key, delta);
    return after;
  }
}

const T0 = new Date('2031-05-10T12:00:00.000Z');

function fakeClock(start = T0) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    set: (d: Date) => (now = d.getTime()),
    advance: (ms: number) => (now += ms),
  };
}

const free: LimitPolicy = { bucket: 'acct:a', burstLimit: 10, quotaLimit: 500, countUsage: true };

const limiters: BlockLimiter[] = [];
function limiterOn(store: MemoryStore, clock: () => Date = fakeClock().now): BlockLimiter {
  const limiter = new BlockLimiter(store.windowCounts, store.usageCounts, clock);
  limiters.push(limiter);
  return limiter;
}
afterEach(async () => {
  // Stop the idle sweepers (close also gives back what is held, harmlessly, to the memory store).
  await Promise.all(limiters.splice(0).map((l) => l.close()));
});

async function settle<T>(promises: Promise<T>[]) {
  const results = await Promise.allSettled(promises);
  const admitted = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const rejected = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
  return { admitted, rejected };
}

async function admitUntilRefused(limiter: BlockLimiter, policy: LimitPolicy): Promise<number> {
  let n = 0;
  for (;;) {
    try {
      await limiter.admit(policy);
      n++;
    } catch (err) {
      expect(err).toBeInstanceOf(LimitRejection);
      return n;
    }
  }
}

describe('BlockLimiter: burst window', () => {
  it('the first call of a new bucket opens a window at that call: remaining limit-1, used 1, reset 60 s later', async () => {
    const { state } = await limiterOn(new MemoryStore()).admit(free);
    expect(state).toEqual({ burstLimit: 10, burstRemaining: 9, burstResetAt: new Date(T0.getTime() + 60_000), quotaUsed: 1, quotaLimit: 500 });
  });

  it('counts down the remaining calls one by one', async () => {
    const limiter = limiterOn(new MemoryStore());
    const remaining: number[] = [];
    for (let i = 0; i < 10; i++) remaining.push((await limiter.admit(free)).state.burstRemaining);
    expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it('50 concurrent calls: exactly 10 admitted, 40 rejected with the burst error', async () => {
    const store = new MemoryStore();
    const limiter = limiterOn(store);
    const { admitted, rejected } = await settle(Array.from({ length: 50 }, () => limiter.admit(free)));
    expect(admitted).toHaveLength(10);
    expect(rejected).toHaveLength(40);
    for (const r of rejected) {
      expect(r).toBeInstanceOf(LimitRejection);
      expect(r.error).toMatchObject({ code: 'rate_limit_exceeded' });
      expect(r.error.data).toEqual({ retry_after: 60, remaining: 0 });
      expect(r.state.burstRemaining).toBe(0);
      expect(r.state.quotaUsed).toBeLessThanOrEqual(10);
    }
    expect(new Set(admitted.map((a) => a.state.burstRemaining)).size).toBe(10);
    expect(await limiter.usage(free.bucket)).toBe(10);
  });

  it('two processes sharing the store: 30 concurrent calls split between them, exactly 10 admitted', async () => {
    const store = new MemoryStore();
    const clock = fakeClock();
    const a = limiterOn(store, clock.now);
    const b = limiterOn(store, clock.now);
    const { admitted } = await settle(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).admit(free)));
    expect(admitted).toHaveLength(10);
    expect(store.burstCount(free.bucket)).toBe(10);
  });

  it('at +59.9 s the window is still full (retry_after 1); at +60 s a new window starts at that call', async () => {
    const clock = fakeClock();
    const limiter = limiterOn(new MemoryStore(), clock.now);
    for (let i = 0; i < 10; i++) await limiter.admit(free);
    clock.advance(59_900);
    const rejection = await limiter.admit(free).catch((e) => e);
    expect(rejection.error.data).toEqual({ retry_after: 1, remaining: 0 });
    expect(httpHeadersOf(rejection.error)).toEqual({ 'Retry-After': '1' });
    expect(rejection.state.burstResetAt).toEqual(new Date(T0.getTime() + 60_000));
    clock.advance(100);
    const { state } = await limiter.admit(free);
    expect(state.burstRemaining).toBe(9);
    expect(state.burstResetAt).toEqual(new Date(T0.getTime() + 120_000));
  });

  it('a window is fixed from the first call after the previous one ended, not aligned to the minute', async () => {
    const clock = fakeClock();
    const limiter = limiterOn(new MemoryStore(), clock.now);
    await limiter.admit(free);
    clock.advance(5 * 60_000 + 1_234);
    const { state } = await limiter.admit(free);
    expect(state.burstResetAt.getTime()).toBe(T0.getTime() + 5 * 60_000 + 1_234 + 60_000);
    expect(state.burstRemaining).toBe(9);
  });

  it('window opening race: when another process opens the window first, its window is used, not a second one', async () => {
    const store = new MemoryStore();
    const other: BurstWindow = { start: new Date(T0.getTime() - 20_000), end: new Date(T0.getTime() + 40_000) };
    store.beforeOpen = (bucket) => {
      // Another process's opening landed just before ours.
      store.windows.set(bucket, { window: other, n: 3 });
      store.beforeOpen = undefined;
    };
    const { state } = await limiterOn(store).admit(free);
    expect(state.burstResetAt).toEqual(other.end);
    expect(state.burstRemaining).toBe(6);
    expect(store.windows.get(free.bucket)).toEqual({ window: other, n: 4 });
    expect(store.opens).toBe(1);
  });

  it('concurrent first calls of a bucket open one window with one look-up', async () => {
    const store = new MemoryStore();
    const limiter = limiterOn(store);
    await settle(Array.from({ length: 20 }, () => limiter.admit(free)));
    expect(store.opens).toBe(1);
  });

  it('a window replaced in the store (another process saw it end first) is left: the call counts in the new one', async () => {
    const store = new MemoryStore();
    const clock = fakeClock();
    const limiter = limiterOn(store, clock.now);
    await limiter.admit(free);
    clock.advance(59_999);
    // Another process, its clock a little ahead, opened the next window.
    const next: BurstWindow = { start: new Date(T0.getTime() + 60_000), end: new Date(T0.getTime() + 120_000) };
    store.windows.set(free.bucket, { window: next, n: 2 });
    const { state } = await limiter.admit(free);
    expect(state).toMatchObject({ burstResetAt: next.end, burstRemaining: 7 });
    expect(store.burstCount(free.bucket)).toBe(3);
  });

  it('a window of another process whose start is slightly in our future (clock skew) is still the current one', async () => {
    const store = new MemoryStore();
    const clock = fakeClock(new Date(T0.getTime() + 500));
    const ahead = limiterOn(store, clock.now);
    for (let i = 0; i < 10; i++) await ahead.admit(free);
    const rejection = await limiterOn(store).admit(free).catch((e) => e);
    expect(rejection).toBeInstanceOf(LimitRejection);
    expect(rejection.error).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(store.burstCount(free.bucket)).toBe(10);
  });

  it('a rejected call is not counted in the quota; the next window goes on from there', async () => {
    const clock = fakeClock();
    const limiter = limiterOn(new MemoryStore(), clock.now);
    for (let i = 0; i < 10; i++) await limiter.admit(free);
    const rejection = await limiter.admit(free).catch((e) => e);
    expect(rejection.state.quotaUsed).toBe(10);
    clock.advance(60_000);
    expect((await limiter.admit(free)).state).toMatchObject({ burstRemaining: 9, quotaUsed: 11 });
  });
});

describe('BlockLimiter: calls given back', () => {
  it('a released call is not counted, and the next call re-uses its numbers (as if it never happened)', async () => {
    const limiter = limiterOn(new MemoryStore());
    await limiter.admit(free);
    const second = await limiter.admit(free);
    expect(second.state).toMatchObject({ burstRemaining: 8, quotaUsed: 2 });
    await second.release();
    expect(await limiter.usage(free.bucket)).toBe(1);
    const third = await limiter.admit(free);
    expect(third.state).toMatchObject({ burstRemaining: 8, quotaUsed: 2 });
  });

  it('concurrent releases and claims never admit more than the limit', async () => {
    const limiter = limiterOn(new MemoryStore());
    const first = await settle(Array.from({ length: 10 }, () => limiter.admit(free)));
    await Promise.all(first.admitted.slice(0, 4).map((a) => a.release()));
    const second = await settle(Array.from({ length: 20 }, () => limiter.admit(free)));
    expect(second.admitted).toHaveLength(4);
  });

  it('a call released in one process is given back to the store when idle, and another process then uses it', async () => {
    const store = new MemoryStore();
    const clock = fakeClock();
    const a = limiterOn(store, clock.now);
    const b = limiterOn(store, clock.now);
    const admitted: Admission[] = [];
    for (let i = 0; i < 10; i++) admitted.push(await a.admit(free));
    await admitted[3].release(); // a 5xx in process A
    await expect(b.admit(free)).rejects.toBeInstanceOf(LimitRejection);
    clock.advance(IDLE_RETURN_MS);
    await a.returnIdle();
    const filled = await b.admit(free);
    expect(filled.state.burstRemaining).toBe(0);
    await expect(b.admit(free)).rejects.toBeInstanceOf(LimitRejection);
    await expect(a.admit(free)).rejects.toBeInstanceOf(LimitRejection);
  });
});

/** A gate that holds the first add to a usage count `matching` until opened; `held` resolves when one is held. */
function holdUsageAdd(matching: (delta: number) => boolean) {
  let open!: () => void;
  let reached!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const held = new Promise<void>((resolve) => (reached = resolve));
  let holding = false;
  const hold = async (key: string, delta: number) => {
    if (holding || !key.startsWith('u:') || !matching(delta)) return;
    holding = true;
    reached();
    await opened;
  };
  return { hold, held, open };
}

describe('BlockLimiter: usage while an add is in flight', () => {
  it.each([
    ['before the give-back reaches the store', 'beforeAdd'],
    ['nor twice once the store has it but the add has not answered', 'afterAdd'],
  ] as const)('calls being given back are not counted %s', async (_, point) => {
    const store = new MemoryStore();
    const clock = fakeClock();
    const limiter = limiterOn(store, clock.now);
    await limiter.admit(free);
    await (await limiter.admit(free)).release();
    const gate = holdUsageAdd((delta) => delta < 0);
    store[point] = gate.hold;
    clock.advance(IDLE_RETURN_MS);
    const returning = limiter.returnIdle();
    await gate.held;
    const usage = limiter.usage(free.bucket);
    gate.open();
    expect(await usage).toBe(1);
    await returning;
    expect(await limiter.usage(free.bucket)).toBe(1);
  });

  it('a block being taken is counted once, whether the store has it or not when usage is asked', async () => {
    const store = new MemoryStore();
    const limiter = limiterOn(store);
    await limiter.admit(free);
    const gate = holdUsageAdd((delta) => delta > 0);
    store.afterAdd = gate.hold;
    const second = limiter.admit(free);
    await gate.held;
    const usage = limiter.usage(free.bucket);
    gate.open();
    await second;
    expect(await usage).toBe(2);
    expect(await limiter.usage(free.bucket)).toBe(2);
  });

  it('a process that holds no count of the period reads the store', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 3; i++) await limiterOn(store).admit(free);
    expect(await limiterOn(store).usage(free.bucket)).toBe(3);
  });
});

describe('BlockLimiter: blocks', () => {
  it('a take that finds the limit passed (another process took meanwhile) keeps the calls below it and gives back the rest at once', async () => {
    const store = new MemoryStore();
    const clock = fakeClock();
    const busy: LimitPolicy = { bucket: 'acct:edge', burstLimit: 800, quotaLimit: Number.POSITIVE_INFINITY, countUsage: false };
    const a = limiterOn(store, clock.now);
    const b = limiterOn(store, clock.now);
    // A has taken 1 and then a block of 4: it knows the count at 5; B then takes 794 calls, so A's next block passes 800.
    for (let i = 0; i < 2; i++) await a.admit(busy);
    for (let i = 0; i < 794; i++) await b.admit(busy);
    const before = store.adds.length;
    let admittedByA = 0;
    while (await a.admit(busy).then(() => true, () => false)) admittedByA++;
    const afterTakes = store.adds.slice(before).filter((add) => add.key === `b:${busy.bucket}`);
    expect(afterTakes.some((add) => add.delta < 0)).toBe(true);
    await Promise.all([a, b].map((p) => p.close()));
    // The calls A handed out, B's and the count agree, and none is over the limit.
    expect(store.burstCount(busy.bucket)).toBe(2 + 794 + admittedByA);
    expect(store.burstCount(busy.bucket)).toBeLessThanOrEqual(800);
  });

  const team: LimitPolicy = { bucket: 'acct:t', burstLimit: 300, quotaLimit: 200_000, countUsage: true };

  it('a busy bucket claims its calls in blocks: 1,000 calls cost far fewer than 1,000 appends per limit', async () => {
    const store = new MemoryStore();
    const limiter = limiterOn(store);
    const busy: LimitPolicy = { bucket: 'acct:busy', burstLimit: 3000, quotaLimit: 1_000_000, countUsage: true };
    const used: number[] = [];
    for (let i = 0; i < 1000; i++) used.push((await limiter.admit(busy)).state.quotaUsed);
    expect(used).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(store.adds.length).toBeLessThan(100);
  });

  it('a bucket that turns busy reaches full blocks in three takes: 1, 4, 16, then the cap', async () => {
    const store = new MemoryStore();
    const limiter = limiterOn(store);
    const busy: LimitPolicy = { bucket: 'acct:ramp', burstLimit: 3000, quotaLimit: Number.POSITIVE_INFINITY, countUsage: false };
    for (let i = 0; i < 200; i++) await limiter.admit(busy);
    expect(store.takes('b:').map((take) => take.delta).slice(0, 5)).toEqual([1, 4, 16, 60, 60]);
  });

  it("a busy bucket's next window starts with a block as large as its last one", async () => {
    const store = new MemoryStore();
    const clock = fakeClock();
    const limiter = limiterOn(store, clock.now);
    const busy: LimitPolicy = { bucket: 'acct:rolling', burstLimit: 3000, quotaLimit: Number.POSITIVE_INFINITY, countUsage: false };
    for (let i = 0; i < 100; i++) await limiter.admit(busy);
    clock.advance(60_000);
    const before = store.takes('b:').length;
    await limiter.admit(busy);
    expect(store.takes('b:').slice(before)[0]?.delta).toBe(60);
  });

  it('a bucket called steadily claims ever larger blocks: 2 calls a second for 30 s cost under half an append per call (two scopes)', async () => {
    const store = new MemoryStore();
    const clock = fakeClock();
    const limiter = limiterOn(store, clock.now);
    const steady: LimitPolicy = { bucket: 'acct:steady', burstLimit: 3000, quotaLimit: Number.POSITIVE_INFINITY, countUsage: true };
    for (let i = 0; i < 60; i++) {
      await limiter.admit(steady);
      clock.advance(500);
    }
    expect(store.adds.length).toBeLessThan(60 / 2);
  });

  it('a block is at most 2 % of the limit: a process killed without giving back strands little', async () => {
    const store = new MemoryStore();
    const limiter = limiterOn(store);
    await settle(Array.from({ length: 400 }, () => limiter.admit({ ...team, countUsage: false })));
    expect(store.burstCount(team.bucket)).toBe(300);
    for (const take of store.takes('b:')) expect(take.delta).toBeLessThanOrEqual(6);
  });

  it('near the limit blocks shrink to single calls, so a process never holds more than an eighth of what is left', async () => {
    const store = new MemoryStore();
    const limiter = limiterOn(store);
    await settle(Array.from({ length: 400 }, () => limiter.admit(team)));
    const takes = store.takes('b:');
    for (const take of takes) expect(take.delta).toBeLessThanOrEqual(Math.max(1, Math.floor((300 - (take.after - take.delta)) / 8)));
    expect(takes[takes.length - 1]).toEqual({ key: `b:${team.bucket}`, delta: 1, after: 300 });
  });

  it('three processes, uneven load, blocks in flight: never more than the limit; once idle blocks are given back, exactly the limit', async () => {
    const store = new MemoryStore();
    const clock = fakeClock();
    const processes = [limiterOn(store, clock.now), limiterOn(store, clock.now), limiterOn(store, clock.now)];
    // Both limits at 300.
    const policy = { ...team, quotaLimit: 300 };
    const calls = Array.from({ length: 420 }, (_, i) => processes[i % 7 === 0 ? 0 : i % 7 < 3 ? 1 : 2].admit(policy));
    const { admitted } = await settle(calls);
    expect(admitted.length).toBeLessThanOrEqual(300);
    // Whatever one process still holds unused goes back once it is idle; a process that found the
    // window full reads the count again a second later.
    clock.advance(IDLE_RETURN_MS);
    await Promise.all(processes.map((p) => p.returnIdle()));
    let more = 0;
    for (const p of processes) more += await admitUntilRefused(p, policy);
    expect(admitted.length + more).toBe(300);
    // Every take past the limit was given back: the counts are the calls admitted.
    expect([store.burstCount(policy.bucket), [...store.periods.values()]]).toEqual([300, [300]]);
  });

  it('a process that found the window full answers from memory, and reads the count again after a second', async () => {
    const store = new MemoryStore();
    const clock = fakeClock();
    const limiter = limiterOn(store, clock.now);
    for (let i = 0; i < 10; i++) await limiter.admit(free);
    await expect(limiter.admit(free)).rejects.toBeInstanceOf(LimitRejection);
    const before = store.operations();
    for (let i = 0; i < 5; i++) await expect(limiter.admit(free)).rejects.toBeInstanceOf(LimitRejection);
    expect(store.operations()).toBe(before);
    clock.advance(1_000);
    await expect(limiter.admit(free)).rejects.toBeInstanceOf(LimitRejection);
    expect(store.operations()).toBe(before + 1);
  });
});

describe('BlockLimiter: monthly quota', () => {
  const small: LimitPolicy = { bucket: 'acct:q', burstLimit: 100, quotaLimit: 5, countUsage: true };

  it('admits exactly the quota, then answers the quota error with limit, used, reset_at and Retry-After', async () => {
    const limiter = limiterOn(new MemoryStore());
    const { admitted } = await settle(Array.from({ length: 12 }, () => limiter.admit(small)));
    expect(admitted).toHaveLength(5);
    const rejection = await limiter.admit(small).catch((e) => e);
    expect(rejection.error).toMatchObject({ code: 'quota_exceeded' });
    expect(rejection.error.data).toEqual({ quota_limit: 5, quota_used: 5, reset_at: '2031-06-01T00:00:00.000Z' });
    const secondsToJune = Math.ceil((Date.parse('2031-06-01T00:00:00Z') - T0.getTime()) / 1000);
    expect(httpHeadersOf(rejection.error)).toEqual({ 'Retry-After': String(secondsToJune) });
    expect(rejection.state).toMatchObject({ quotaUsed: 5, quotaLimit: 5, burstRemaining: 95 });
  });

  it('a new calendar month starts at 0', async () => {
    const clock = fakeClock(new Date('2031-05-31T23:59:30.000Z'));
    const limiter = limiterOn(new MemoryStore(), clock.now);
    for (let i = 0; i < 5; i++) await limiter.admit(small);
    await expect(limiter.admit(small)).rejects.toBeInstanceOf(LimitRejection);
    clock.set(new Date('2031-06-01T00:00:00.000Z'));
    expect((await limiter.admit(small)).state.quotaUsed).toBe(1);
  });

  it('a raised limit (tier change) applies at once, even right after the old one was found exhausted', async () => {
    const limiter = limiterOn(new MemoryStore());
    for (let i = 0; i < 5; i++) await limiter.admit(small);
    await expect(limiter.admit(small)).rejects.toBeInstanceOf(LimitRejection);
    const { state } = await limiter.admit({ ...small, quotaLimit: 10 });
    expect(state).toMatchObject({ quotaUsed: 6, quotaLimit: 10 });
  });

  it('without a quota (enterprise) every call is still counted', async () => {
    const limiter = limiterOn(new MemoryStore());
    const policy: LimitPolicy = { bucket: 'acct:e', burstLimit: 3000, quotaLimit: Number.POSITIVE_INFINITY, countUsage: true };
    let last;
    for (let i = 0; i < 20; i++) last = await limiter.admit(policy);
    expect(last!.state).toMatchObject({ quotaUsed: 20, quotaLimit: Number.POSITIVE_INFINITY, burstRemaining: 2980 });
    expect(await limiter.usage('acct:e')).toBe(20);
  });

  it('a policy that counts no usage (anonymous) writes only its burst window: X-Quota-Used is the calls of the window', async () => {
    const store = new MemoryStore();
    const limiter = limiterOn(store);
    const anonymous: LimitPolicy = { bucket: 'ip:198.51.100.7', burstLimit: 30, quotaLimit: Number.POSITIVE_INFINITY, countUsage: false };
    const states = [];
    for (let i = 0; i < 3; i++) states.push((await limiter.admit(anonymous)).state);
    expect(states.map((s) => [s.burstRemaining, s.quotaUsed])).toEqual([[29, 1], [28, 2], [27, 3]]);
    expect(store.periods.size).toBe(0);
  });
});

describe('BlockLimiter: admitNow (the calls\' path)', () => {
  const busy: LimitPolicy = { bucket: 'acct:busy', burstLimit: 1_000, quotaLimit: 100_000, countUsage: true };

  it('asks the store (a promise) for the first call of a bucket, then decides from the positions it holds without one, counting as admit does', async () => {
    const store = new MemoryStore();
    const limiter = limiterOn(store);
    const first = limiter.admitNow(busy);
    expect(first).toBeInstanceOf(Promise);
    const remaining = [(await first).state.burstRemaining];
    let synchronous = 0;
    for (let i = 0; i < 29; i++) {
      const decided = i % 3 === 2 ? limiter.admit(busy) : limiter.admitNow(busy);
      if (!(decided instanceof Promise)) synchronous++;
      remaining.push((await decided).state.burstRemaining);
    }
    expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => 999 - i));
    expect(synchronous).toBeGreaterThan(10);
    expect(await limiter.usage(busy.bucket)).toBe(30);
  });

  it('a call admitted without a promise is given back like any other: the next call re-uses its numbers', async () => {
    const limiter = limiterOn(new MemoryStore());
    for (let i = 0; i < 3; i++) await limiter.admit(busy); // a steady bucket: blocks of several calls are held from here on
    expect(await limiter.usage(busy.bucket)).toBe(3); // (once the next blocks, taken in the background, are held)
    const held = limiter.admitNow(busy);
    expect(held).not.toBeInstanceOf(Promise);
    expect((held as Admission).state).toMatchObject({ burstRemaining: 996, quotaUsed: 4 });
    await (held as Admission).release();
    const again = await limiter.admitNow(busy);
    expect(again.state).toMatchObject({ burstRemaining: 996, quotaUsed: 4 });
    expect(await limiter.usage(busy.bucket)).toBe(4);
  });

  it('a limit this process found used up is answered from memory, like admit', async () => {
    const limiter = limiterOn(new MemoryStore());
    expect(await admitUntilRefused(limiter, free)).toBe(10);
    await expect(limiter.admitNow(free)).rejects.toBeInstanceOf(LimitRejection);
  });
});

describe('BlockLimiter: peek (the headers of a call refused before it is metered)', () => {
  it('knows nothing of a bucket this process has not admitted a call of yet', () => {
    expect(limiterOn(new MemoryStore()).peek(free)).toBeNull();
  });

  it('shows the limits as they stand, counting no call and touching no store', async () => {
    const store = new MemoryStore();
    const limiter = limiterOn(store);
    await limiter.admit(free);
    await limiter.admit(free);
    const operations = store.operations();
    expect(limiter.peek(free)).toEqual({ burstLimit: 10, burstRemaining: 8, burstResetAt: new Date(T0.getTime() + 60_000), quotaUsed: 2, quotaLimit: 500 });
    expect(limiter.peek(free)?.burstRemaining).toBe(8);
    expect(store.operations()).toBe(operations);
    expect((await limiter.admit(free)).state.burstRemaining).toBe(7);
  });

  it('knows nothing once the window it knows has ended', async () => {
    const clock = fakeClock();
    const limiter = limiterOn(new MemoryStore(), clock.now);
    await limiter.admit(free);
    clock.advance(60_000);
    expect(limiter.peek(free)).toBeNull();
  });
});

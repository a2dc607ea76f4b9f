import { BurstLimitError, QuotaExceededError } from '../../../src/domain/errors';
import { LimitPolicy, LimitRejection, RateLimiter, SlotStore, WindowRecord } from '../../../src/domain/limits/rate-limiter';

/**
 * An in-memory SlotStore with the one guarantee the limiter relies on: a slot (and a window)
 * is an insert under a unique id, so only one caller can take it. Every operation yields to
 * the event loop first, so concurrent admissions really interleave.
 */
class MemorySlotStore implements SlotStore {
  readonly windows = new Map<string, WindowRecord>();
  readonly slots = new Map<string, Set<number>>();
  readonly calls: string[] = [];
  /** Called before createWindow inserts: lets a test make "another process" win the race. */
  beforeCreateWindow?: (bucket: string, window: WindowRecord) => void;

  private tick = () => new Promise<void>((resolve) => setImmediate(resolve));

  async latestWindow(bucket: string): Promise<WindowRecord | null> {
    this.calls.push('latestWindow');
    await this.tick();
    let latest: WindowRecord | null = null;
    for (const [id, w] of this.windows) if (id.startsWith(`${bucket}#`) && (!latest || w.seq > latest.seq)) latest = w;
    return latest;
  }

  async createWindow(bucket: string, window: WindowRecord): Promise<boolean> {
    this.calls.push('createWindow');
    await this.tick();
    this.beforeCreateWindow?.(bucket, window);
    const id = `${bucket}#${window.seq}`;
    if (this.windows.has(id)) return false;
    this.windows.set(id, window);
    return true;
  }

  async claimSlot(scope: string, k: number): Promise<boolean> {
    this.calls.push(`claim ${scope} ${k}`);
    await this.tick();
    const taken = this.taken(scope);
    if (taken.has(k)) return false;
    taken.add(k);
    return true;
  }

  async releaseSlot(scope: string, k: number): Promise<void> {
    this.calls.push(`release ${scope} ${k}`);
    await this.tick();
    this.taken(scope).delete(k);
  }

  /** Like the MongoDB store: an exponential then binary search over "slot k exists", so a hole can make it low. */
  async highestSlot(scope: string, from = 0): Promise<number> {
    this.calls.push(`highestSlot ${scope} ${from}`);
    await this.tick();
    const taken = this.taken(scope);
    let low = from;
    let step = 1;
    while (taken.has(low + step)) {
      low += step;
      step *= 2;
    }
    let high = low + step;
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (taken.has(mid)) low = mid;
      else high = mid;
    }
    return low;
  }

  async takenSlots(scope: string): Promise<number[]> {
    this.calls.push(`takenSlots ${scope}`);
    await this.tick();
    return [...this.taken(scope)];
  }

  taken(scope: string): Set<number> {
    let set = this.slots.get(scope);
    if (!set) this.slots.set(scope, (set = new Set()));
    return set;
  }

  /** Slots taken in every scope whose name starts with `prefix` (b: burst, u: usage). */
  count(prefix: string): number {
    let n = 0;
    for (const [scope, set] of this.slots) if (scope.startsWith(prefix)) n += set.size;
    return n;
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

const free: LimitPolicy = { bucket: 'acct:a', burstLimit: 10, quotaLimit: 500 };

async function settle<T>(promises: Promise<T>[]) {
  const results = await Promise.allSettled(promises);
  const admitted = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const rejected = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
  return { admitted, rejected };
}

describe('RateLimiter: burst window', () => {
  it('the first call of a new bucket opens a window at that call: remaining limit-1, used 1, reset 60 s later', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(new MemorySlotStore(), clock.now);
    const { state } = await limiter.admit(free);
    expect(state).toEqual({ burstLimit: 10, burstRemaining: 9, burstResetAt: new Date(T0.getTime() + 60_000), quotaUsed: 1, quotaLimit: 500 });
  });

  it('counts down the remaining calls one by one', async () => {
    const limiter = new RateLimiter(new MemorySlotStore(), fakeClock().now);
    const remaining: number[] = [];
    for (let i = 0; i < 10; i++) remaining.push((await limiter.admit(free)).state.burstRemaining);
    expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it('50 concurrent calls: exactly 10 admitted, 40 rejected with the burst error', async () => {
    const store = new MemorySlotStore();
    const limiter = new RateLimiter(store, fakeClock().now);
    const { admitted, rejected } = await settle(Array.from({ length: 50 }, () => limiter.admit(free)));
    expect(admitted).toHaveLength(10);
    expect(rejected).toHaveLength(40);
    for (const r of rejected) {
      expect(r).toBeInstanceOf(LimitRejection);
      expect(r.error).toBeInstanceOf(BurstLimitError);
      expect(r.error.extra).toEqual({ retry_after: 60, remaining: 0 });
      expect(r.state.burstRemaining).toBe(0);
    }
    expect(store.count('b:')).toBe(10);
    expect(store.count('u:')).toBe(10);
    expect(new Set(admitted.map((a) => a.state.burstRemaining)).size).toBe(10);
  });

  it('two processes sharing the store: 30 concurrent calls split between them, exactly 10 admitted', async () => {
    const store = new MemorySlotStore();
    const clock = fakeClock();
    const a = new RateLimiter(store, clock.now);
    const b = new RateLimiter(store, clock.now);
    const { admitted } = await settle(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).admit(free)));
    expect(admitted).toHaveLength(10);
    expect(store.count('b:')).toBe(10);
    expect(store.windows.size).toBe(1);
  });

  it('at +59.9 s the window is still full (retry_after 1); at +60 s a new window starts at that call', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(new MemorySlotStore(), clock.now);
    for (let i = 0; i < 10; i++) await limiter.admit(free);
    clock.advance(59_900);
    const rejection = await limiter.admit(free).catch((e) => e);
    expect(rejection.error.extra).toEqual({ retry_after: 1, remaining: 0 });
    expect(rejection.error.headers).toEqual({ 'Retry-After': '1' });
    expect(rejection.state.burstResetAt).toEqual(new Date(T0.getTime() + 60_000));
    clock.advance(100);
    const { state } = await limiter.admit(free);
    expect(state.burstRemaining).toBe(9);
    expect(state.burstResetAt).toEqual(new Date(T0.getTime() + 120_000));
  });

  it('a window is fixed from the first call after the previous one ended, not aligned to the minute', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(new MemorySlotStore(), clock.now);
    await limiter.admit(free);
    clock.advance(5 * 60_000 + 1_234);
    const { state } = await limiter.admit(free);
    expect(state.burstResetAt.getTime()).toBe(T0.getTime() + 5 * 60_000 + 1_234 + 60_000);
    expect(state.burstRemaining).toBe(9);
  });

  it('window creation race: when another process creates the window first, its window is used, not a second one', async () => {
    const store = new MemorySlotStore();
    const clock = fakeClock();
    const other: WindowRecord = { seq: 1, start: new Date(T0.getTime() - 20_000), end: new Date(T0.getTime() + 40_000) };
    store.beforeCreateWindow = (bucket, window) => {
      // Another process got there between our latestWindow and our insert.
      if (window.seq === 1) store.windows.set(`${bucket}#1`, other);
      store.beforeCreateWindow = undefined;
    };
    const limiter = new RateLimiter(store, clock.now);
    const { state } = await limiter.admit(free);
    expect(state.burstResetAt).toEqual(other.end);
    expect(store.windows.size).toBe(1);
    expect(store.calls.filter((c) => c === 'createWindow')).toHaveLength(1);
  });

  it('a window of another process whose start is slightly in our future (clock skew) is still the current one', async () => {
    const store = new MemorySlotStore();
    const ahead: WindowRecord = { seq: 3, start: new Date(T0.getTime() + 500), end: new Date(T0.getTime() + 60_500) };
    store.windows.set('acct:a#3', ahead);
    store.taken('b:acct:a:3').add(1).add(2).add(3).add(4).add(5).add(6).add(7).add(8).add(9).add(10);
    const limiter = new RateLimiter(store, fakeClock().now);
    const rejection = await limiter.admit(free).catch((e) => e);
    expect(rejection).toBeInstanceOf(LimitRejection);
    expect(rejection.error).toBeInstanceOf(BurstLimitError);
    expect(store.windows.size).toBe(1);
  });

  it('a rejected call is not counted in the quota', async () => {
    const store = new MemorySlotStore();
    const limiter = new RateLimiter(store, fakeClock().now);
    for (let i = 0; i < 10; i++) await limiter.admit(free);
    const rejection = await limiter.admit(free).catch((e) => e);
    expect(rejection.state.quotaUsed).toBe(10);
    expect(store.count('u:')).toBe(10);
  });
});

describe('RateLimiter: slots given back', () => {
  it('a released call is not counted, and the next call re-uses its slot (same numbers as if it never happened)', async () => {
    const store = new MemorySlotStore();
    const limiter = new RateLimiter(store, fakeClock().now);
    await limiter.admit(free);
    const second = await limiter.admit(free);
    expect(second.state).toMatchObject({ burstRemaining: 8, quotaUsed: 2 });
    await second.release();
    expect(store.count('b:')).toBe(1);
    expect(store.count('u:')).toBe(1);
    const third = await limiter.admit(free);
    expect(third.state).toMatchObject({ burstRemaining: 8, quotaUsed: 2 });
  });

  it('a hole in the middle is re-used first and the counts stay exact', async () => {
    const store = new MemorySlotStore();
    const limiter = new RateLimiter(store, fakeClock().now);
    const admissions = [];
    for (let i = 0; i < 5; i++) admissions.push(await limiter.admit(free));
    await admissions[1].release(); // slot 2 of both scopes
    expect(store.taken('u:acct:a:2031-05')).toEqual(new Set([1, 3, 4, 5]));
    const next = await limiter.admit(free);
    expect(store.taken('u:acct:a:2031-05')).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(next.state).toMatchObject({ burstRemaining: 5, quotaUsed: 5 });
    const after = await limiter.admit(free);
    expect(after.state).toMatchObject({ burstRemaining: 4, quotaUsed: 6 });
  });

  it('a full window with a hole left by another process: the hole is found and filled, then the window is full again', async () => {
    const store = new MemorySlotStore();
    const clock = fakeClock();
    const a = new RateLimiter(store, clock.now);
    const admitted = [];
    for (let i = 0; i < 10; i++) admitted.push(await a.admit(free));
    await admitted[3].release(); // process A gives slot 4 back (a 5xx)
    const b = new RateLimiter(store, clock.now);
    const filled = await b.admit(free);
    expect(filled.state.burstRemaining).toBe(0);
    // B learns only the highest usage slot (10), not A's hole in it, so it takes slot 11 and reports
    // 11: a count reported by one process can be above the truth by the refunds another process
    // made. The admission itself is exact: only the unique slots decide.
    expect(filled.state.quotaUsed).toBe(11);
    expect(store.count('u:')).toBe(10);
    expect(store.calls).toContain('takenSlots b:acct:a:1');
    await expect(b.admit(free)).rejects.toBeInstanceOf(LimitRejection);
    await expect(a.admit(free)).rejects.toBeInstanceOf(LimitRejection);
    expect(store.count('b:')).toBe(10);
  });

  it('concurrent releases and claims never admit more than the limit', async () => {
    const store = new MemorySlotStore();
    const limiter = new RateLimiter(store, fakeClock().now);
    const first = await settle(Array.from({ length: 10 }, () => limiter.admit(free)));
    await Promise.all(first.admitted.slice(0, 4).map((a) => a.release()));
    const second = await settle(Array.from({ length: 20 }, () => limiter.admit(free)));
    expect(second.admitted).toHaveLength(4);
    expect(store.count('b:')).toBe(10);
  });
});

describe('RateLimiter: monthly quota', () => {
  const small: LimitPolicy = { bucket: 'acct:q', burstLimit: 100, quotaLimit: 5 };

  it('admits exactly the quota, then answers the quota error with limit, used, reset_at and Retry-After', async () => {
    const store = new MemorySlotStore();
    const clock = fakeClock();
    const limiter = new RateLimiter(store, clock.now);
    const { admitted } = await settle(Array.from({ length: 12 }, () => limiter.admit(small)));
    expect(admitted).toHaveLength(5);
    const rejection = await limiter.admit(small).catch((e) => e);
    expect(rejection.error).toBeInstanceOf(QuotaExceededError);
    expect(rejection.error.extra).toEqual({ quota_limit: 5, quota_used: 5, reset_at: '2031-06-01T00:00:00.000Z' });
    const secondsToJune = Math.ceil((Date.parse('2031-06-01T00:00:00Z') - T0.getTime()) / 1000);
    expect(rejection.error.headers).toEqual({ 'Retry-After': String(secondsToJune) });
    expect(rejection.state).toMatchObject({ quotaUsed: 5, quotaLimit: 5, burstRemaining: 95 });
  });

  it('a call refused for the quota does not use up a burst slot', async () => {
    const store = new MemorySlotStore();
    const limiter = new RateLimiter(store, fakeClock().now);
    for (let i = 0; i < 5; i++) await limiter.admit(small);
    await limiter.admit(small).catch(() => undefined);
    expect(store.count('b:')).toBe(5);
  });

  it('a new calendar month starts at 0', async () => {
    const clock = fakeClock(new Date('2031-05-31T23:59:30.000Z'));
    const limiter = new RateLimiter(new MemorySlotStore(), clock.now);
    for (let i = 0; i < 5; i++) await limiter.admit(small);
    await expect(limiter.admit(small)).rejects.toBeInstanceOf(LimitRejection);
    clock.set(new Date('2031-06-01T00:00:00.000Z'));
    const { state } = await limiter.admit(small);
    expect(state.quotaUsed).toBe(1);
  });

  it('a raised limit (tier change) applies at once, even right after the old one was found exhausted', async () => {
    const limiter = new RateLimiter(new MemorySlotStore(), fakeClock().now);
    for (let i = 0; i < 5; i++) await limiter.admit(small);
    await expect(limiter.admit(small)).rejects.toBeInstanceOf(LimitRejection);
    const { state } = await limiter.admit({ ...small, quotaLimit: 10 });
    expect(state).toMatchObject({ quotaUsed: 6, quotaLimit: 10 });
  });

  it('without a quota (enterprise) every call is still counted', async () => {
    const store = new MemorySlotStore();
    const limiter = new RateLimiter(store, fakeClock().now);
    const policy = { bucket: 'acct:e', burstLimit: 3000, quotaLimit: Number.POSITIVE_INFINITY };
    let last;
    for (let i = 0; i < 20; i++) last = await limiter.admit(policy);
    expect(last!.state).toMatchObject({ quotaUsed: 20, quotaLimit: Number.POSITIVE_INFINITY, burstRemaining: 2980 });
    expect(await limiter.usage('acct:e')).toBe(20);
  });
});

describe('RateLimiter: database round trips', () => {
  it('a process whose hint is far behind (a hole at slot 1) catches up by a search, not one failed claim per slot', async () => {
    const store = new MemorySlotStore();
    for (let k = 2; k <= 300; k++) store.taken('u:acct:h:2031-05').add(k);
    const limiter = new RateLimiter(store, fakeClock().now);
    const policy = { bucket: 'acct:h', burstLimit: 3000, quotaLimit: 10_000 };
    await limiter.admit(policy); // fills the hole at 1
    const { state } = await limiter.admit(policy);
    expect(state.quotaUsed).toBe(301);
    const usageClaims = store.calls.filter((c) => c.startsWith('claim u:'));
    expect(usageClaims.length).toBeLessThanOrEqual(5);
  });

  it('a full window is looked up once; later calls in it are refused without touching the store', async () => {
    const store = new MemorySlotStore();
    const limiter = new RateLimiter(store, fakeClock().now);
    for (let i = 0; i < 10; i++) await limiter.admit(free);
    const before = store.calls.length;
    await expect(limiter.admit(free)).rejects.toBeInstanceOf(LimitRejection);
    const first = store.calls.slice(before);
    // The call that finds the window full looks for a hole once, and never touches the quota.
    expect(first).toEqual(['takenSlots b:acct:a:1']);
    const after = store.calls.length;
    for (let i = 0; i < 5; i++) await expect(limiter.admit(free)).rejects.toBeInstanceOf(LimitRejection);
    expect(store.calls.slice(after)).toEqual([]);
    expect(store.count('u:')).toBe(10);
  });

  it('the burst and the usage slot of a call are claimed together (one round trip)', async () => {
    const store = new MemorySlotStore();
    const limiter = new RateLimiter(store, fakeClock().now);
    await limiter.admit(free);
    let inFlight = 0;
    let maxInFlight = 0;
    const claim = store.claimSlot.bind(store);
    store.claimSlot = async (scope, k) => {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        return await claim(scope, k);
      } finally {
        inFlight--;
      }
    };
    await limiter.admit(free);
    expect(maxInFlight).toBe(2);
  });

  it('a slot this process gives back in a full window is re-used by its next call', async () => {
    const store = new MemorySlotStore();
    const limiter = new RateLimiter(store, fakeClock().now);
    const admitted = [];
    for (let i = 0; i < 10; i++) admitted.push(await limiter.admit(free));
    await expect(limiter.admit(free)).rejects.toBeInstanceOf(LimitRejection);
    await admitted[4].release();
    const again = await limiter.admit(free);
    expect(again.state.burstRemaining).toBe(0);
    await expect(limiter.admit(free)).rejects.toBeInstanceOf(LimitRejection);
    expect(store.count('b:')).toBe(10);
  });

  it('steady state: two claims per call and nothing else', async () => {
    const store = new MemorySlotStore();
    const limiter = new RateLimiter(store, fakeClock().now);
    await limiter.admit(free);
    const before = store.calls.length;
    for (let i = 0; i < 5; i++) await limiter.admit(free);
    expect(store.calls.slice(before)).toEqual(Array.from({ length: 5 }, (_, i) => [`claim b:acct:a:1 ${i + 2}`, `claim u:acct:a:2031-05 ${i + 2}`]).flat());
  });
});

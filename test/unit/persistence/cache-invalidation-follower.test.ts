import { CacheInvalidationFollower, FOLLOW_MAX_LAG_MS, lifetimeOf, LOST_ENTRY_MS } from '../../../src/persistence/cache-invalidation-follower';
import type { CacheInvalidations, Invalidation } from '../../../src/persistence/cache-invalidations';

type InvalidationLog = Pick<CacheInvalidations, 'position' | 'entries'>;

/** An in-memory log with the persistence module's shape; `reserve` takes a number whose entry is written later (or never); `fail` makes its reads throw. */
function fakeLog(initial: Invalidation[] = []) {
  const entries: Array<Invalidation | null> = [...initial];
  let fail = false;
  let onRead = () => {};
  const read = () => {
    onRead();
    if (fail) throw new Error('store down');
  };
  const log: InvalidationLog = {
    position: async () => {
      read();
      return entries.length;
    },
    entries: async (from, to) => {
      read();
      return entries.slice(from - 1, to);
    },
  };
  return {
    log,
    append: (c: Invalidation) => entries.push(c),
    reserve: () => {
      const n = entries.push(null);
      return (c: Invalidation) => (entries[n - 1] = c);
    },
    setFail: (v: boolean) => (fail = v),
    whenRead: (f: () => void) => (onRead = f),
  };
}

function follower(log: InvalidationLog) {
  let now = 1_000;
  const applied: Invalidation[] = [];
  const resets: number[] = [];
  const f = new CacheInvalidationFollower(log, (c) => applied.push(c), { now: () => now, reset: () => resets.push(now), onError: () => undefined });
  return { f, applied, resets, advance: (ms: number) => (now += ms) };
}

const revoked = (hash: string): Invalidation => ({ kind: 'key_revoked', key_hash: hash });

describe('CacheInvalidationFollower', () => {
  it('starts at the end of the log: changes from before this process started concern nothing it caches', async () => {
    const store = fakeLog([revoked('old')]);
    const { f, applied } = follower(store.log);
    await f.pollOnce();
    await f.pollOnce();
    expect(applied).toEqual([]);
  });

  it('applies every change logged after it started, oldest first, once', async () => {
    const store = fakeLog();
    const { f, applied } = follower(store.log);
    await f.pollOnce();
    store.append(revoked('a'));
    store.append({ kind: 'tier_set', account_id: 'acct_1' });
    await f.pollOnce();
    await f.pollOnce();
    expect(applied).toEqual([{ kind: 'key_revoked', key_hash: 'a' }, { kind: 'tier_set', account_id: 'acct_1' }]);
  });

  it('reads a backlog longer than one batch within the same poll', async () => {
    const store = fakeLog();
    const { f, applied } = follower(store.log);
    await f.pollOnce();
    for (let i = 0; i < 250; i++) store.append(revoked(`k${i}`));
    await f.pollOnce();
    expect(applied).toHaveLength(250);
  });

  it('an entry still being written holds its place: the entries after it are applied, and it is when it lands', async () => {
    const store = fakeLog();
    const { f, applied, resets } = follower(store.log);
    await f.pollOnce();
    const write = store.reserve();
    store.append(revoked('after'));
    await f.pollOnce();
    expect(applied).toEqual([revoked('after')]);
    write(revoked('late'));
    await f.pollOnce();
    expect(applied).toContainEqual(revoked('late'));
    expect(resets).toHaveLength(1); // the first poll's only
  });

  it(`an entry still missing ${LOST_ENTRY_MS} ms after it was first missed is passed, the caches told to start afresh`, async () => {
    const store = fakeLog();
    const { f, applied, resets, advance } = follower(store.log);
    await f.pollOnce();
    store.reserve(); // its writer stopped before writing it
    await f.pollOnce();
    advance(LOST_ENTRY_MS - 1);
    await f.pollOnce();
    expect(resets).toHaveLength(1);
    advance(1);
    await f.pollOnce();
    expect(resets).toHaveLength(2);
    store.append(revoked('next'));
    await f.pollOnce();
    expect(applied).toEqual([revoked('next')]);
  });

  it('is covered since the start of its last complete poll, and not at all before the first', async () => {
    const store = fakeLog();
    const { f, advance } = follower(store.log);
    store.whenRead(() => advance(50)); // each read takes time: the poll ends later than it started
    expect(f.coveredSince()).toBeNull();
    await f.pollOnce();
    expect(f.coveredSince()).toBe(1_000);
    const started = advance(200);
    await f.pollOnce();
    expect(f.coveredSince()).toBe(started);
  });

  it('counts as followed only while its last complete poll started less than FOLLOW_MAX_LAG_MS ago', () => {
    const own = { ttlMs: 1, maxStaleMs: 1 };
    const followed = (covered: number | null) => lifetimeOf({ coveredSince: () => covered })(5_000, own) !== own;
    expect(followed(null)).toBe(false);
    expect(followed(5_000 - FOLLOW_MAX_LAG_MS + 1)).toBe(true);
    expect(followed(5_000 - FOLLOW_MAX_LAG_MS)).toBe(false);
  });

  it('tells the caches to start afresh when it finds the log’s end, also when its first read failed', async () => {
    const store = fakeLog();
    let resets = 0;
    const f = new CacheInvalidationFollower(store.log, () => undefined, { reset: () => resets++, now: Date.now, onError: () => undefined });
    store.setFail(true);
    await expect(f.pollOnce()).rejects.toThrow('store down');
    expect([resets, f.coveredSince()]).toEqual([0, null]);
    store.setFail(false);
    store.append(revoked('logged while the first read failed'));
    await f.pollOnce();
    await f.pollOnce();
    expect(resets).toBe(1); // what the caches took in before is dropped, not trusted for FOLLOWED_TTL_MS
    expect(f.coveredSince()).not.toBeNull();
  });

  it('a failed poll promises nothing new: coveredSince stays where the last complete poll left it', async () => {
    const store = fakeLog();
    const { f, advance } = follower(store.log);
    await f.pollOnce();
    store.setFail(true);
    advance(200);
    await expect(f.pollOnce()).rejects.toThrow('store down');
    expect(f.coveredSince()).toBe(1_000);
  });

  it('a second start starts no second loop: one stop ends all polling', async () => {
    jest.useFakeTimers();
    try {
      const store = fakeLog();
      let reads = 0;
      store.whenRead(() => reads++);
      const { f } = follower(store.log);
      await f.start();
      await f.start();
      await f.stop();
      const afterStop = reads;
      await jest.advanceTimersByTimeAsync(5_000);
      expect(reads).toBe(afterStop);
    } finally {
      jest.useRealTimers();
    }
  });
});

import { BlockEntry, LimitBlocks } from '../../src/persistence/limit-blocks';
import { LimitWindows } from '../../src/persistence/limit-windows';
import { ExpirySweepers } from '../../src/persistence/store-primitives';
import { openTestDb } from '../support/test-db';

/** The limiter's persistence on the real embedded store: the unique insert is the only arbiter. */
describe('limit blocks and windows on the real store', () => {
  let close: () => Promise<void>;
  let db: Awaited<ReturnType<typeof openTestDb>>['db'];
  const expires = new Date('2031-06-01T00:00:00.000Z');
  const expiry = new ExpirySweepers();

  beforeAll(async () => {
    ({ db, close } = await openTestDb('limit_store'));
    await new LimitBlocks(db).ensureIndexes(expiry);
    await new LimitWindows(db).ensureIndexes(expiry);
  });
  afterAll(async () => {
    expiry.stop();
    await close?.();
  });

  const entry = (n: number, delta = 1, before = n - 1): BlockEntry => ({ n, delta, cum: before + delta });

  it('concurrent appends of the same entries from two processes: each entry is written exactly once', async () => {
    const a = new LimitBlocks(db);
    const b = new LimitBlocks(db);
    const attempts = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).append('race', entry((i % 20) + 1), expires));
    const results = await Promise.all(attempts);
    expect(results.filter(Boolean)).toHaveLength(20);
    for (let n = 1; n <= 20; n++) expect([results[n - 1], results[n + 19]].filter(Boolean)).toHaveLength(1);
    expect(await a.latest('race', null)).toEqual(entry(20));
  });

  it('a batch holding the same entry twice writes it once', async () => {
    const blocks = new LimitBlocks(db);
    const results = await Promise.all([blocks.append('dup', entry(1, 5, 0), expires), blocks.append('dup', entry(1, 7, 0), expires), blocks.append('dup', entry(2, 3, 5), expires)]);
    expect(results).toEqual([true, false, true]);
    expect(await blocks.latest('dup', null)).toEqual({ n: 2, delta: 3, cum: 8 });
  });

  it('latest finds the last entry by _id lookups, from nothing or from a known entry; an empty log is null', async () => {
    const blocks = new LimitBlocks(db);
    await Promise.all(Array.from({ length: 77 }, (_, i) => blocks.append('top', entry(i + 1), expires)));
    expect(await blocks.latest('top', null)).toEqual(entry(77));
    expect(await blocks.latest('top', entry(50))).toEqual(entry(77));
    expect(await blocks.latest('top', entry(77))).toEqual(entry(77));
    expect(await blocks.latest('empty', null)).toBeNull();
  });

  it('windows: the latest is found by a process that never saw the bucket (head + probing), and a seq is created once', async () => {
    const first = new LimitWindows(db);
    const at = (s: number) => ({ seq: s, start: new Date(Date.UTC(2031, 4, 10, 12, s)), end: new Date(Date.UTC(2031, 4, 10, 12, s + 1)) });
    expect(await first.latestWindow('acct:w')).toBeNull();
    for (const s of [1, 2, 3]) expect(await first.createWindow('acct:w', at(s), expires)).toBe(true);
    expect(await new LimitWindows(db).createWindow('acct:w', at(3), expires)).toBe(false);
    expect(await new LimitWindows(db).latestWindow('acct:w')).toEqual(at(3));
    // The head lags behind (written by a slower process): probing still finds the latest.
    await db.collection('limit_window_heads').updateOne({ _id: 'acct:w' as never }, { $set: { seq: 1 } });
    expect(await new LimitWindows(db).latestWindow('acct:w')).toEqual(at(3));
    // Another process opens 4: this one, which last saw 3, finds it.
    expect(await new LimitWindows(db).createWindow('acct:w', at(4), expires)).toBe(true);
    expect(await first.latestWindow('acct:w')).toEqual(at(4));
  });

  it('windows: a head whose window document is gone yields an ended window with that seq', async () => {
    const windows = new LimitWindows(db);
    await db.collection('limit_window_heads').insertOne({ _id: 'acct:gone' as never, seq: 7, expires_at: expires });
    expect(await windows.latestWindow('acct:gone')).toEqual({ seq: 7, start: new Date(0), end: new Date(0) });
  });
});

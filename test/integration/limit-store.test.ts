import { LimitSlots } from '../../src/persistence/limit-slots';
import { LimitWindows } from '../../src/persistence/limit-windows';
import { openTestDb } from '../support/test-db';

/** The limiter's persistence on the real embedded store: the unique insert is the only arbiter. */
describe('limit slots and windows on the real store', () => {
  let close: () => Promise<void>;
  let db: Awaited<ReturnType<typeof openTestDb>>['db'];
  const expires = new Date('2031-06-01T00:00:00.000Z');

  beforeAll(async () => {
    ({ db, close } = await openTestDb('limit_store'));
    await new LimitSlots(db).ensureIndexes();
    await new LimitWindows(db).ensureIndexes();
  });
  afterAll(async () => {
    await close?.();
  });

  it('concurrent claims of the same slots from two processes: each slot is won exactly once', async () => {
    const a = new LimitSlots(db);
    const b = new LimitSlots(db);
    const attempts = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).claimSlot('race', (i % 20) + 1, expires));
    const results = await Promise.all(attempts);
    expect(results.filter(Boolean)).toHaveLength(20);
    for (let k = 1; k <= 20; k++) expect([results[k - 1], results[k + 19]].filter(Boolean)).toHaveLength(1);
    expect((await a.takenSlots('race')).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('a batch holding the same slot twice grants it once', async () => {
    const slots = new LimitSlots(db);
    const results = await Promise.all([slots.claimSlot('dup', 1, expires), slots.claimSlot('dup', 1, expires), slots.claimSlot('dup', 2, expires)]);
    expect(results).toEqual([true, false, true]);
  });

  it('a released slot can be claimed again', async () => {
    const slots = new LimitSlots(db);
    expect(await slots.claimSlot('again', 1, expires)).toBe(true);
    await slots.releaseSlot('again', 1);
    expect(await slots.claimSlot('again', 1, expires)).toBe(true);
    expect(await slots.claimSlot('again', 1, expires)).toBe(false);
  });

  it('highestSlot finds the top of contiguous slots by _id lookups, and searches on from a given slot', async () => {
    const slots = new LimitSlots(db);
    await Promise.all(Array.from({ length: 77 }, (_, i) => slots.claimSlot('top', i + 1, expires)));
    expect(await slots.highestSlot('top')).toBe(77);
    expect(await slots.highestSlot('top', 50)).toBe(77);
    expect(await slots.highestSlot('empty')).toBe(0);
    await slots.releaseSlot('top', 1);
    // A hole at the bottom hides the rest from a search that starts below it...
    expect(await slots.highestSlot('top')).toBe(0);
    // ...but not from one that starts above it.
    expect(await slots.highestSlot('top', 2)).toBe(77);
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

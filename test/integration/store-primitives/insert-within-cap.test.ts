import type { Db } from 'mongodb';
import { insertWithinCap } from '../../../src/persistence/store-primitives';
import { CAP_FOR_WRITERS } from '../../support/store-primitive-ops';
import { runWritersTogether } from '../../support/store-writers';
import { openTestDb } from '../../support/test-db';

/** Insert within a cap (the endpoint cap, the sign-in throttle), on the real embedded store. */
describe('store primitive: insert within a cap', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('insert_within_cap');
    db = store.db;
  });
  afterAll(() => store.close());

  const capped = () => db.collection<{ _id: string; scope: string }>('capped');

  it('inserts up to the cap, then refuses and leaves nothing behind, telling how many were there', async () => {
    for (let i = 0; i < 3; i++) expect(await insertWithinCap(capped(), { _id: `s-${i}`, scope: 's' }, { scope: 's' }, 3)).toEqual({ inserted: true });
    expect(await insertWithinCap(capped(), { _id: 's-3', scope: 's' }, { scope: 's' }, 3)).toEqual({ inserted: false, count: 4, tookBack: false });
    expect(await capped().countDocuments({ scope: 's' })).toBe(3);
  });

  it('counts only what the cap covers', async () => {
    await capped().insertOne({ _id: 'other-0', scope: 'other' });
    expect(await insertWithinCap(capped(), { _id: 'one-0', scope: 'one' }, { scope: 'one' }, 1)).toEqual({ inserted: true });
  });

  it('many concurrent inserts in one process never exceed the cap', async () => {
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => insertWithinCap(capped(), { _id: `c-${i}`, scope: 'c' }, { scope: 'c' }, 10)));
    const kept = results.filter((r) => r.inserted).length;
    expect(kept).toBeLessThanOrEqual(10);
    expect(await capped().countDocuments({ scope: 'c' })).toBe(kept);
  });

  it('concurrent inserts that all see each other before any is taken back still fill the room', async () => {
    // The racy point: three inserts written, then all three read (each sees 3 with room for 2),
    // and only then any taken back. Every one of them used to be taken back, none kept.
    const racers = 3;
    let written = 0;
    let read = 0;
    const until = async (reached: () => boolean) => {
      while (!reached()) await new Promise((r) => setTimeout(r, 5));
    };
    const firstRound = () => read < racers;
    const held = new Proxy(capped(), {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== 'function') return value;
        if (prop === 'insertOne') return (...args: unknown[]) => value.apply(target, args).finally(() => (written += 1));
        // A read once an insert is written (the check before inserting comes first, unheld).
        if ((prop === 'find' || prop === 'countDocuments') && written > 0 && firstRound()) {
          const readAll = async (run: () => Promise<unknown>) => {
            await until(() => written >= racers);
            return run().finally(() => (read += 1));
          };
          if (prop === 'find') return (...args: unknown[]) => ({ toArray: () => readAll(() => value.apply(target, args).toArray()) });
          return (...args: unknown[]) => readAll(() => value.apply(target, args));
        }
        if (prop === 'deleteOne') return async (...args: unknown[]) => (await until(() => read >= racers), value.apply(target, args));
        return value.bind(target);
      },
    });
    const results = await Promise.all(Array.from({ length: racers }, (_, i) => insertWithinCap(held, { _id: `edge-${i}`, scope: 'edge' }, { scope: 'edge' }, 2)));
    expect(results.filter((r) => r.inserted)).toHaveLength(2);
    expect(await capped().countDocuments({ scope: 'edge' })).toBe(2);
  });

  it('two processes inserting at once never exceed the cap, and every insert told it stayed did stay', async () => {
    const job = { uri: process.env.MONGODB_URI!, db: db.databaseName, op: 'insertWithinCap' as const, scope: 'race', count: 40 };
    const [a, b] = await runWritersTogether<number>([
      { ...job, name: 'a' },
      { ...job, name: 'b' },
    ]);
    const stored = await capped().countDocuments({ scope: 'race' });
    expect(stored).toBeLessThanOrEqual(CAP_FOR_WRITERS);
    expect(stored).toBe(a + b);
  });
});

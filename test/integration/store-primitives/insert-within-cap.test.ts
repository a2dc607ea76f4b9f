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
    expect(await insertWithinCap(capped(), { _id: 's-3', scope: 's' }, { scope: 's' }, 3)).toEqual({ inserted: false, count: 4 });
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

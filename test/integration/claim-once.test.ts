import type { Db } from 'mongodb';
import { claimOnce } from '../../src/persistence/mongo';
import { runWritersTogether } from '../support/store-writers';
import { openTestDb } from '../support/test-db';

/** Claim an id once, on the real embedded store. */
describe('claim an id once', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('claim');
    db = store.db;
  });
  afterAll(() => store.close());

  const claims = () => db.collection<{ _id: string; by: string }>('claims');

  it('the first claim of an id wins and a second is refused, keeping the first writer', async () => {
    expect(await claimOnce(claims(), { _id: 'a', by: 'first' })).toBe(true);
    expect(await claimOnce(claims(), { _id: 'a', by: 'second' })).toBe(false);
    expect(await claims().findOne({ _id: 'a' })).toEqual({ _id: 'a', by: 'first' });
  });

  it('concurrent claims of one id in one process: exactly one wins', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => claimOnce(claims(), { _id: 'b', by: `w${i}` })));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('two processes claiming the same ids: every id is won by exactly one, and the stored writer is the winner', async () => {
    const count = 150;
    const job = { uri: process.env.MONGODB_URI!, db: db.databaseName, op: 'claim' as const, scope: 'race', count };
    const [a, b] = await runWritersTogether<string[]>([
      { ...job, name: 'a' },
      { ...job, name: 'b' },
    ]);
    expect(a.length + b.length).toBe(count);
    expect(new Set([...a, ...b]).size).toBe(count);
    const stored = await claims().find({ _id: { $regex: /^race-/ } }).toArray();
    expect(stored).toHaveLength(count);
    const wonByA = new Set(a);
    for (const doc of stored) expect(doc.by).toBe(wonByA.has(doc._id) ? 'a' : 'b');
  });
});

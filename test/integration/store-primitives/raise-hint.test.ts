import type { Db } from 'mongodb';
import { raiseHint } from '../../../src/persistence/store-primitives';
import { runWritersTogether } from '../../support/store-writers';
import { openTestDb } from '../../support/test-db';

/** Raise a hint (a lower bound kept with `$max`), on the real embedded store. */
describe('store primitive: raise a hint', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('raise_hint');
    db = store.db;
  });
  afterAll(() => store.close());

  const hints = () => db.collection<{ _id: string; n: number; at?: string }>('hints');

  it('creates the hint, raises it, never lowers it, and writes its `$set` with every raise', async () => {
    await raiseHint(hints(), 'h', { $max: { n: 3 }, $set: { at: 'first' } });
    await raiseHint(hints(), 'h', { $max: { n: 5 }, $set: { at: 'second' } });
    await raiseHint(hints(), 'h', { $max: { n: 4 }, $set: { at: 'third' } });
    expect(await hints().findOne({ _id: 'h' })).toEqual({ _id: 'h', n: 5, at: 'third' });
  });

  it('two processes making the first raises of the same hints at once: none fails, each hint holds the higher value', async () => {
    const count = 100;
    const job = { uri: process.env.MONGODB_URI!, db: db.databaseName, op: 'raiseHint' as const, scope: 'race', count };
    expect(await runWritersTogether<number>([{ ...job, name: 'a' }, { ...job, name: 'b' }])).toEqual([count, count]);
    const found = (await hints().find({}).toArray()).filter((h) => h._id.startsWith('race-'));
    expect(found).toHaveLength(count);
    expect(found.filter((h) => h.n !== Number(h._id.slice('race-'.length)) + 1)).toEqual([]);
  });
});

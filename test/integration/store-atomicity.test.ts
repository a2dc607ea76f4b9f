import type { Db } from 'mongodb';
import { BOUND_FOR_WRITERS, type CounterDoc, type OwnedDoc, type UpsertTally, type WriterJob } from '../support/store-writer-ops';
import { runWritersTogether } from '../support/store-writers';
import { openTestDb } from '../support/test-db';

/**
 * MongoDB's single-document atomicity, asked of the embedded store itself (docs/embedded-store.md#atomicity):
 * writers in two processes send their operations all at once, with no retries, against the same documents.
 */
describe('embedded store: single-document atomicity under writers in two processes', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('store_atomicity');
    db = store.db;
  });
  afterAll(() => store.close());

  const owned = () => db.collection<OwnedDoc>('owned');
  const counters = () => db.collection<CounterDoc>('counters');
  const bothWriters = <R>(op: WriterJob['op'], scope: string, count: number) =>
    runWritersTogether<R>(['a', 'b'].map((name) => ({ uri: process.env.MONGODB_URI!, db: db.databaseName, op, scope, count, name })));
  const unowned = (scope: string, count: number) => owned().insertMany(Array.from({ length: count }, (_, i) => ({ _id: `${scope}-${i}`, scope, owner: null })));

  it('40 concurrent findOneAndUpdate claims over 10 unowned documents: exactly 10 succeed, each document once, kept by its claimant', async () => {
    await unowned('claims', 10);
    const [a, b] = await bothWriters<string[]>('claimUnowned', 'claims', 20);
    expect({ claims: a.length + b.length, distinct: new Set([...a, ...b]).size }).toEqual({ claims: 10, distinct: 10 });
    const stored = await owned().find({ scope: 'claims' }).sort({ _id: 1 }).toArray();
    const claimant = (id: string) => (a.includes(id) ? 'a' : b.includes(id) ? 'b' : null);
    expect(stored.map((d) => d.owner)).toEqual(stored.map((d) => claimant(d._id)));
  });

  it('200 concurrent $inc (with $max) from two processes on one document end at 200', async () => {
    await counters().insertOne({ _id: 'hits', v: 0, top: 0 });
    await bothWriters<number>('incCounter', 'hits', 100);
    expect(await counters().findOne({ _id: 'hits' })).toEqual({ _id: 'hits', v: 200, top: 100 });
  });

  it('a conditional update ($inc and $push while v < 10) sent 60 times at once stops at 10, and exactly 10 are reported matched', async () => {
    await counters().insertOne({ _id: 'bounded', v: 0, by: [] });
    const [a, b] = await bothWriters<number>('incBelowBound', 'bounded', 30);
    const doc = await counters().findOne({ _id: 'bounded' });
    expect({ reported: a + b, v: doc?.v, pushed: doc?.by?.length }).toEqual({ reported: BOUND_FOR_WRITERS, v: BOUND_FOR_WRITERS, pushed: BOUND_FOR_WRITERS });
  });

  it('50 concurrent deleteOne with a filter over 50 documents: each deletes a different one, none is left', async () => {
    await unowned('deletes', 50);
    const [a, b] = await bothWriters<number>('deleteAny', 'deletes', 25);
    expect({ reported: a + b, left: await owned().countDocuments({ scope: 'deletes' }) }).toEqual({ reported: 50, left: 0 });
  });

  it('concurrent upserts of one _id: none fails, one inserts, the others update', async () => {
    const [a, b] = await bothWriters<UpsertTally>('upsertById', 'upserted', 50);
    expect({ errors: [...a.errors, ...b.errors], upserted: a.upserted + b.upserted }).toEqual({ errors: [], upserted: 1 });
    expect(await counters().findOne({ _id: 'upserted' })).toEqual({ _id: 'upserted', v: 100 });
  });

  it('concurrent upserts on a unique key other than _id: none fails, one document holds every increment', async () => {
    await counters().createIndex({ key: 1 }, { unique: true });
    const [a, b] = await bothWriters<UpsertTally>('upsertByKey', 'keyed', 50);
    expect({ errors: [...a.errors, ...b.errors], upserted: a.upserted + b.upserted }).toEqual({ errors: [], upserted: 1 });
    expect((await counters().find({ key: 'keyed' }).toArray()).map((d) => d.v)).toEqual([100]);
  });

  it('inserts racing upserts of the same _ids: no upsert fails; each document is inserted once and counts both writers', async () => {
    const count = 200;
    const job = { uri: process.env.MONGODB_URI!, db: db.databaseName, scope: 'mixed', count };
    const [inserts, upserts] = await runWritersTogether<UpsertTally>([
      { ...job, op: 'insertIds', name: 'a' },
      { ...job, op: 'upsertIds', name: 'b' },
    ]);
    expect(upserts.errors).toEqual([]);
    // An insert refused (E11000) came after the upsert inserted; every other upsert updated the inserted document.
    expect(inserts.errors.filter((code) => code !== 11000)).toEqual([]);
    const docs = await counters().find({ _id: { $regex: /^mixed-/ } }).toArray();
    expect(docs).toHaveLength(count);
    expect(docs.reduce((sum, d) => sum + d.v, 0)).toBe(2 * count - inserts.errors.length);
    expect(upserts.upserted).toBe(inserts.errors.length);
  });
});

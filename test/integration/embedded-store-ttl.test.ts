import type { Collection, Db, Filter } from 'mongodb';
import type { ExpiringDoc } from '../support/store-writer-ops';
import { runWritersTogether } from '../support/store-writers';
import { openTestDb } from '../support/test-db';
import { ttlMonitorPass } from '../support/ttl-monitor';

const HOUR = 3_600_000;

/**
 * TTL indexes on the embedded store keep MongoDB's promises (docs/embedded-store.md): `expireAfterSeconds` is taken
 * and listed, and the monitor deletes a document once its field's date (or an array's earliest) is that long past.
 * Each check waits for a whole pass of the monitor (serverStatus' metrics.ttl.passes), never for a time.
 */
describe('embedded store: TTL indexes', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('store_ttl');
    db = store.db;
  });
  afterAll(() => store.close());

  const collection = (name: string) => db.collection<{ _id: string; [field: string]: unknown }>(name);
  const ids = async <T extends { _id: string }>(col: Collection<T>, filter: Filter<T> = {}) => (await col.find(filter, { projection: { _id: 1 } }).toArray()).map((d) => String(d._id)).sort();

  it('takes expireAfterSeconds on a single-field index, and listIndexes reports it', async () => {
    const col = collection('listed');
    const name = await col.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 });
    await col.createIndex({ created_at: 1 }, { expireAfterSeconds: 3600, name: 'created_at_ttl' });
    const indexes = await col.listIndexes().toArray();
    expect(indexes.find((i) => i.name === name)).toMatchObject({ key: { expires_at: 1 }, expireAfterSeconds: 0 });
    expect(indexes.find((i) => i.name === 'created_at_ttl')).toMatchObject({ key: { created_at: 1 }, expireAfterSeconds: 3600 });
    expect(indexes.find((i) => i.name === '_id_')).not.toHaveProperty('expireAfterSeconds');
    // The same index again is no change; with another delay it is refused, as MongoDB refuses it.
    expect(await col.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 })).toBe(name);
    await expect(col.createIndex({ expires_at: 1 }, { expireAfterSeconds: 60 })).rejects.toMatchObject({ code: 85 });
  });

  it('refuses expireAfterSeconds where MongoDB does: a compound index, _id, a non-number, out of range', async () => {
    const col = collection('refused');
    await db.createCollection('refused');
    await expect(col.createIndex({ a: 1, expires_at: 1 }, { expireAfterSeconds: 0 })).rejects.toMatchObject({ code: 67 });
    await expect(col.createIndex({ _id: 1 }, { expireAfterSeconds: 0, name: 'id_ttl' })).rejects.toMatchObject({ code: 197 });
    await expect(col.createIndex({ b: 1 }, { expireAfterSeconds: 'soon' as unknown as number })).rejects.toMatchObject({ code: 67 });
    await expect(col.createIndex({ c: 1 }, { expireAfterSeconds: -1 })).rejects.toMatchObject({ code: 67 });
    await expect(col.createIndex({ d: 1 }, { expireAfterSeconds: 2 ** 31 })).rejects.toMatchObject({ code: 67 });
    expect((await col.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  });

  it('deletes a past date and an array holding one; keeps a future date, an array of future dates, other values and a missing field', async () => {
    const col = collection('expiring');
    await col.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 });
    const now = Date.now();
    await col.insertMany([
      { _id: 'past', expires_at: new Date(now - HOUR) },
      { _id: 'future', expires_at: new Date(now + HOUR) },
      { _id: 'array-with-past', expires_at: [new Date(now + HOUR), new Date(now - HOUR)] },
      { _id: 'array-of-future', expires_at: [new Date(now + HOUR), new Date(now + 2 * HOUR)] },
      { _id: 'string', expires_at: new Date(now - HOUR).toISOString() },
      { _id: 'number', expires_at: now - HOUR },
      { _id: 'null', expires_at: null },
      { _id: 'missing' },
    ]);
    await ttlMonitorPass(db);
    expect(await ids(col)).toEqual(['array-of-future', 'future', 'missing', 'null', 'number', 'string']);
  });

  it('honours expireAfterSeconds > 0: a date older than the delay goes, a newer one stays', async () => {
    const col = collection('delayed');
    await col.createIndex({ created_at: 1 }, { expireAfterSeconds: 3600 });
    const now = Date.now();
    await col.insertMany([
      { _id: 'older', created_at: new Date(now - 2 * HOUR) },
      { _id: 'newer', created_at: new Date(now - HOUR / 2) },
    ]);
    await ttlMonitorPass(db);
    expect(await ids(col)).toEqual(['newer']);
  });

  it("reads {field: {$lte: date}} (the monitor's scan) from the TTL index, answering as MongoDB: dates at or before it and arrays holding one", async () => {
    const col = collection('ranged');
    await col.createIndex({ expires_at: 1 }, { expireAfterSeconds: 3600 * 24 * 365 });
    const cutoff = new Date('2030-01-01T00:00:00Z');
    await col.insertMany([
      { _id: 'before', expires_at: new Date(cutoff.getTime() - 1) },
      { _id: 'at', expires_at: cutoff },
      { _id: 'after', expires_at: new Date(cutoff.getTime() + 1) },
      { _id: 'array', expires_at: [new Date(cutoff.getTime() + 1), cutoff] },
      { _id: 'number', expires_at: 0 },
      { _id: 'string', expires_at: '[2029' },
      { _id: 'missing' },
    ]);
    const filter = { expires_at: { $lte: cutoff } };
    expect(await ids(col, filter)).toEqual(['array', 'at', 'before']);
    const explained = await db.command({ explain: { find: 'ranged', filter }, verbosity: 'queryPlanner' });
    const plan = JSON.stringify(explained.queryPlanner);
    expect(plan).toMatch(/USING INDEX|IXSCAN/);
    expect(plan).not.toMatch(/detail=SCAN|COLLSCAN/);
  });

  it('a backlog larger than one scan (2,100 expired) is gone after one pass', async () => {
    const col = collection('backlog');
    await col.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 });
    await col.insertMany(Array.from({ length: 2_100 }, (_, i) => ({ _id: `late-${i}`, expires_at: new Date(Date.now() - 1000) })));
    await col.insertOne({ _id: 'kept', expires_at: new Date(Date.now() + HOUR) });
    await ttlMonitorPass(db);
    expect(await ids(col)).toEqual(['kept']);
  });

  it('two processes inserting while the monitor deletes: every expired document goes, and no live one with them', async () => {
    const shared = db.collection<ExpiringDoc>('expiring_shared');
    await shared.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 });
    const count = 60;
    const job = { uri: process.env.MONGODB_URI!, db: db.databaseName, op: 'insertExpiring' as const, scope: 'ttl', count };
    await runWritersTogether<number>([
      { ...job, name: 'a' },
      { ...job, name: 'b' },
    ]);
    await ttlMonitorPass(db);
    const expected = ['a', 'b'].flatMap((name) => Array.from({ length: count }, (_, i) => `${name}-live-${i}`)).sort();
    expect(await ids(shared)).toEqual(expected);
  });
});

import type { CommandStartedEvent, Db } from 'mongodb';
import { ExpirySweepers, sweepExpired } from '../../src/persistence/expiry-sweepers';
import { SWEEP_NOW, type ExpiringDoc } from '../support/store-writer-ops';
import { runWritersTogether } from '../support/store-writers';
import { openTestDb } from '../support/test-db';

/** Expire at a time, on the real embedded store (which has no TTL index: the purge path runs). */
describe('expire at a time', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  /** Each `delete` command sent: how many documents each of its statements may remove (0: any number). */
  const deletes: number[][] = [];
  /** Each `find` command sent: its limit (0: none). */
  const finds: number[] = [];
  const sweepers = new ExpirySweepers();
  beforeAll(async () => {
    store = await openTestDb('expire_at', { monitorCommands: true });
    db = store.db;
    store.client.on('commandStarted', (e: CommandStartedEvent) => {
      if (e.commandName === 'delete') deletes.push((e.command.deletes as Array<{ limit: number }>).map((d) => d.limit));
      if (e.commandName === 'find') finds.push(Number(e.command.limit ?? 0));
    });
  });
  afterAll(async () => {
    sweepers.stop();
    await store.close();
  });

  const docs = () => db.collection<{ _id: string; expires_at: Date }>('expiring');

  it('the embedded store refuses a TTL index, so expiry runs as a purge timer owned by the sweepers', async () => {
    expect(await sweepers.ensureExpiry(docs())).toBe('purge-timer');
  });

  it('a sweep deletes what expired at or before now and keeps the rest', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    await docs().insertMany([
      { _id: 'past', expires_at: new Date(now.getTime() - 1) },
      { _id: 'now', expires_at: now },
      { _id: 'later', expires_at: new Date(now.getTime() + 1) },
    ]);
    expect(await sweepExpired(docs(), now)).toBe(2);
    expect((await docs().find().toArray()).map((d) => d._id)).toEqual(['later']);
  });

  it('a large purge reads the collection once, then deletes in commands of at most 20 single documents, so no one command holds the store long', async () => {
    const now = new Date('2030-03-01T00:00:00Z');
    const col = db.collection<{ _id: string; expires_at: Date }>('expiring_many');
    await col.insertMany(Array.from({ length: 250 }, (_, i) => ({ _id: `gone-${i}`, expires_at: new Date(now.getTime() - 1000) })));
    await col.insertOne({ _id: 'kept', expires_at: new Date(now.getTime() + 1000) });
    deletes.length = 0;
    finds.length = 0;
    expect(await sweepExpired(col, now)).toBe(250);
    expect(finds).toHaveLength(1);
    expect((await col.find().toArray()).map((d) => d._id)).toEqual(['kept']);
    expect(deletes.length).toBeGreaterThanOrEqual(13);
    for (const limits of deletes) {
      expect(limits.length).toBeLessThanOrEqual(20);
      expect(limits.every((limit) => limit === 1)).toBe(true);
    }
  });

  it('a purge after a long stop holds at most 1,000 ids at a time: it reads again until a read comes back short', async () => {
    const now = new Date('2030-04-01T00:00:00Z');
    const col = db.collection<{ _id: string; expires_at: Date }>('expiring_backlog');
    await col.insertMany(Array.from({ length: 2_100 }, (_, i) => ({ _id: `late-${i}`, expires_at: new Date(now.getTime() - 1000) })));
    finds.length = 0;
    expect(await sweepExpired(col, now)).toBe(2_100);
    expect(finds).toEqual([1_000, 1_000, 1_000]);
    expect(await col.countDocuments()).toBe(0);
  });

  it('two concurrent sweeps in one process remove every expired document, and fail neither', async () => {
    const now = new Date('2030-06-01T00:00:00Z');
    await docs().insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: `old-${i}`, expires_at: new Date(now.getTime() - 1000) })));
    const [a, b] = await Promise.all([sweepExpired(docs(), now), sweepExpired(docs(), now)]);
    expect(a + b).toBeGreaterThanOrEqual(50);
    expect(await docs().countDocuments({ _id: { $regex: /^old-/ } })).toBe(0);
  });

  it('two processes inserting and sweeping at once: every expired document goes, and no live one is taken with them', async () => {
    const shared = db.collection<ExpiringDoc>('expiring_shared');
    await shared.insertMany(Array.from({ length: 40 }, (_, i) => ({ _id: `seeded-${i}`, expires_at: new Date(SWEEP_NOW.getTime() - 1000) })));
    const count = 60;
    const job = { uri: process.env.MONGODB_URI!, db: db.databaseName, op: 'insertAndSweep' as const, scope: 'sweep', count };
    const [a, b] = await runWritersTogether<number>([
      { ...job, name: 'a' },
      { ...job, name: 'b' },
    ]);
    expect(a + b).toBeGreaterThanOrEqual(40 + 2 * count);
    expect(await shared.countDocuments({ expires_at: { $lte: SWEEP_NOW } })).toBe(0);
    const live = (await shared.find({}).toArray()).map((d) => d._id).sort();
    const expected = ['a', 'b'].flatMap((name) => Array.from({ length: count }, (_, i) => `${name}-live-${i}`)).sort();
    expect(live).toEqual(expected);
  });
});

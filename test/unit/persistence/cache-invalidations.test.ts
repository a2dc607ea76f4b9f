import type { Db } from 'mongodb';
import { MongoServerError } from 'mongodb';
import { CacheInvalidations, type Invalidation } from '../../../src/persistence/cache-invalidations';

/** A `cache_invalidations` collection in memory: unique `_id`s, and an insert that can be made to fail. */
function store() {
  const docs = new Map<string, { _id: string }>();
  const calls: string[] = [];
  let failInserts = false;
  const collection = {
    async findOne(filter: { _id: string }) {
      calls.push(`find ${filter._id}`);
      return docs.get(filter._id) ?? null;
    },
    async insertOne(doc: { _id: string }) {
      calls.push(`insert ${doc._id}`);
      if (failInserts) throw new Error('store unreachable');
      if (docs.has(doc._id)) throw new MongoServerError({ code: 11000, message: 'E11000 duplicate key' });
      docs.set(doc._id, doc);
      return { acknowledged: true };
    },
  };
  const db = { collection: () => collection } as unknown as Db;
  return { db, docs, calls, failing: (on: boolean) => (failInserts = on) };
}

const revoked: Invalidation = { kind: 'key_revoked', key_hash: 'h1' };

describe('cache-invalidations log', () => {
  it("tells this process's caches of a change even when logging it fails (the change is already written)", async () => {
    const { db, failing } = store();
    const log = new CacheInvalidations(db);
    const told: Invalidation[] = [];
    log.onAppend((i) => told.push(i));
    failing(true);
    await expect(log.append(revoked)).rejects.toThrow('store unreachable');
    expect(told).toEqual([revoked]);
  });

  it('appends at the end this process knows without reading first; a number taken meanwhile costs a probe', async () => {
    const { db, calls } = store();
    const first = new CacheInvalidations(db);
    const other = new CacheInvalidations(db);
    expect(await first.append(revoked)).toBe(1);
    expect(calls).toEqual(['insert invalidations#1']);
    expect(await other.append(revoked)).toBe(2);
    calls.length = 0;
    expect(await first.append(revoked)).toBe(3);
    expect(calls[0]).toBe('insert invalidations#2');
    expect(calls.at(-1)).toBe('insert invalidations#3');
  });
});

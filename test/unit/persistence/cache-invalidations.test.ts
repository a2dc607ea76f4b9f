import type { Db } from 'mongodb';
import { CacheInvalidations, type Invalidation } from '../../../src/persistence/cache-invalidations';

/** `cache_invalidations` and its counter in memory; inserts can be made to fail. */
function store() {
  const entries = new Map<string, { _id: string }>();
  let counter = 0;
  const calls: string[] = [];
  let failInserts = false;
  const collections: Record<string, unknown> = {
    cache_invalidation_counter: {
      async findOneAndUpdate() {
        calls.push('count');
        return { _id: 'invalidations', n: ++counter };
      },
      async findOne() {
        return counter === 0 ? null : { _id: 'invalidations', n: counter };
      },
    },
    cache_invalidations: {
      async findOne(filter: { _id: string }) {
        return entries.get(filter._id) ?? null;
      },
      async insertOne(doc: { _id: string }) {
        calls.push(`insert ${doc._id}`);
        if (failInserts) throw new Error('store unreachable');
        entries.set(doc._id, doc);
      },
    },
  };
  const db = { collection: (name: string) => collections[name] } as unknown as Db;
  return { db, calls, failing: (on: boolean) => (failInserts = on) };
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

  it('numbers each entry from the counter, then writes it; a number whose entry failed stays a gap', async () => {
    const { db, calls, failing } = store();
    const log = new CacheInvalidations(db);
    expect(await log.append(revoked)).toBe(1);
    failing(true);
    await expect(log.append({ kind: 'tier_set', account_id: 'acct_1' })).rejects.toThrow();
    failing(false);
    expect(await log.append({ kind: 'endpoints_changed', account_id: 'acct_2' })).toBe(3);
    expect(calls).toEqual(['count', 'insert invalidations#1', 'count', 'insert invalidations#2', 'count', 'insert invalidations#3']);
    expect(await log.position()).toBe(3);
    expect(await log.entries(1, 3)).toMatchObject([revoked, null, { kind: 'endpoints_changed', account_id: 'acct_2' }]);
  });
});

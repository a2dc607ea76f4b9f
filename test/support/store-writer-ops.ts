import type { Db, UpdateResult } from 'mongodb';
import { endpointWriterOperations } from './endpoint-store-ops';
import { claimOnce } from '../../src/persistence/mongo';

/** What a writer process (store-writer.ts) is asked to do. */
export interface WriterJob {
  uri: string;
  db: string;
  op: keyof typeof writerOperations;
  scope: string;
  count: number;
  name: string;
}

export type ExpiringDoc = { _id: string; expires_at: Date };

/** Each operation returns what this writer was told (won ids, numbers appended, sets that succeeded). */
export const writerOperations = {
  ...endpointWriterOperations,
  /** Claims ids `<scope>-1..count`; returns those this writer won. */
  async claim(db: Db, job: WriterJob): Promise<string[]> {
    const won: string[] = [];
    for (let i = 1; i <= job.count; i++) {
      const _id = `${job.scope}-${i}`;
      if (await claimOnce(db.collection<{ _id: string; by: string }>('claims'), { _id, by: job.name })) won.push(_id);
    }
    return won;
  },

  /** `count` times: writes a document that expires in an hour and one that has expired (while the store's TTL monitor deletes). */
  async insertExpiring(db: Db, job: WriterJob): Promise<number> {
    const col = db.collection<ExpiringDoc>('expiring_shared');
    for (let i = 0; i < job.count; i++) {
      await col.insertOne({ _id: `${job.name}-live-${i}`, expires_at: new Date(Date.now() + 3_600_000) });
      await col.insertOne({ _id: `${job.name}-dead-${i}`, expires_at: new Date(Date.now() - 1000) });
    }
    return job.count;
  },

  // The store's own single-document atomicity (store-atomicity.test.ts): `count` operations at once, no retries.

  /** `count` concurrent claims of any unowned document of `<scope>`; returns the ids this writer was handed. */
  async claimUnowned(db: Db, job: WriterJob): Promise<string[]> {
    const col = db.collection<OwnedDoc>('owned');
    const won = await Promise.all(Array.from({ length: job.count }, () => col.findOneAndUpdate({ scope: job.scope, owner: null }, { $set: { owner: job.name } })));
    return won.flatMap((doc) => (doc ? [doc._id] : []));
  },

  /** `count` concurrent `$inc` of 1 (and `$max` of 1..count) on the counter `<scope>`. */
  async incCounter(db: Db, job: WriterJob): Promise<number> {
    const col = db.collection<CounterDoc>('counters');
    await Promise.all(Array.from({ length: job.count }, (_, i) => col.updateOne({ _id: job.scope }, { $inc: { v: 1 }, $max: { top: i + 1 } })));
    return job.count;
  },

  /** `count` concurrent "$inc n and $push my name while n < BOUND" on `<scope>`; returns how many updates it was told matched. */
  async incBelowBound(db: Db, job: WriterJob): Promise<number> {
    const col = db.collection<CounterDoc>('counters');
    const results = await Promise.all(
      Array.from({ length: job.count }, () => col.updateOne({ _id: job.scope, v: { $lt: BOUND_FOR_WRITERS } }, { $inc: { v: 1 }, $push: { by: job.name } })),
    );
    return results.reduce((sum, r) => sum + r.modifiedCount, 0);
  },

  /** `count` concurrent `deleteOne` of any document of `<scope>`; returns how many it was told deleted one. */
  async deleteAny(db: Db, job: WriterJob): Promise<number> {
    const col = db.collection<OwnedDoc>('owned');
    const results = await Promise.all(Array.from({ length: job.count }, () => col.deleteOne({ scope: job.scope })));
    return results.reduce((sum, r) => sum + r.deletedCount, 0);
  },

  /** `count` concurrent `$inc` upserts of `{<field>: <scope>}` (field `_id` or `key`); returns how many inserted and the errors seen. */
  async upsertById(db: Db, job: WriterJob): Promise<UpsertTally> {
    return upsertTogether(db, job, { _id: job.scope });
  },
  async upsertByKey(db: Db, job: WriterJob): Promise<UpsertTally> {
    return upsertTogether(db, job, { key: job.scope });
  },

  /** `count` concurrent inserts of `<scope>-1..count`; returns how many were refused as duplicates (E11000). */
  async insertIds(db: Db, job: WriterJob): Promise<UpsertTally> {
    const col = db.collection<CounterDoc>('counters');
    const results = await Promise.all(
      Array.from({ length: job.count }, (_, i) =>
        col.insertOne({ _id: `${job.scope}-${i + 1}`, v: 1 }).then(
          () => null,
          (err: { code?: number }) => err.code ?? -1,
        ),
      ),
    );
    return { upserted: 0, errors: results.filter((code): code is number => code !== null) };
  },

  /** `count` concurrent `$inc` upserts of `<scope>-1..count` (racing insertIds); returns how many inserted and the errors seen. */
  async upsertIds(db: Db, job: WriterJob): Promise<UpsertTally> {
    const col = db.collection<CounterDoc>('counters');
    return tallyUpserts(Array.from({ length: job.count }, (_, i) => col.updateOne({ _id: `${job.scope}-${i + 1}` }, { $inc: { v: 1 } }, { upsert: true })));
  },
};

export type OwnedDoc = { _id: string; scope: string; owner: string | null };
export type CounterDoc = { _id: string; key?: string; v: number; top?: number; by?: string[] };
/** How many upserts inserted, and the error code of each that failed. */
export type UpsertTally = { upserted: number; errors: number[] };
/** The bound the incBelowBound writers share. */
export const BOUND_FOR_WRITERS = 10;

function upsertTogether(db: Db, job: WriterJob, filter: { _id: string } | { key: string }): Promise<UpsertTally> {
  const col = db.collection<CounterDoc>('counters');
  return tallyUpserts(Array.from({ length: job.count }, () => col.updateOne(filter, { $inc: { v: 1 } }, { upsert: true })));
}

async function tallyUpserts(sent: Array<Promise<UpdateResult<CounterDoc>>>): Promise<UpsertTally> {
  const settled = await Promise.allSettled(sent);
  return {
    upserted: settled.filter((s) => s.status === 'fulfilled' && s.value.upsertedCount === 1).length,
    errors: settled.flatMap((s) => (s.status === 'rejected' ? [(s.reason as { code?: number }).code ?? -1] : [])),
  };
}

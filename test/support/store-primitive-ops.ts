import type { Db, UpdateResult } from 'mongodb';
import { endpointWriterOperations } from './endpoint-store-ops';
import { AppendLog, claimOnce, insertWithinCap, raiseHint, sweepExpired, type LogFormat } from '../../src/persistence/store-primitives';

/** What a writer process (store-primitive-writer.ts) is asked to do. */
export interface WriterJob {
  uri: string;
  db: string;
  op: keyof typeof writerOperations;
  scope: string;
  count: number;
  name: string;
}

/** A running total and who wrote it: each entry derives from the one before (the shape of block logs and health logs). */
export interface Tally {
  cum: number;
  by: string;
}
export type TallyDoc = Tally & { _id: string; scope: string; n: number };

export const tallyFormat: LogFormat<Tally, TallyDoc> = {
  toDoc: (scope, n, value) => ({ scope, n, cum: value.cum, by: value.by }),
  fromDoc: (doc) => ({ cum: doc.cum, by: doc.by }),
  projection: { cum: 1, by: 1 },
};

export function tallyLog(db: Db): AppendLog<Tally, TallyDoc> {
  return new AppendLog(db.collection<TallyDoc>('tallies'), tallyFormat);
}

/** The cap the insertWithinCap writers share. */
export const CAP_FOR_WRITERS = 25;

/** The instant the sweeping writers purge at: what expires at or before it is gone after a sweep. */
export const SWEEP_NOW = new Date('2030-06-01T00:00:00Z');
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

  /** Tries `count` inserts into `<scope>` capped at CAP_FOR_WRITERS documents; returns how many stayed. */
  async insertWithinCap(db: Db, job: WriterJob): Promise<number> {
    const col = db.collection<{ _id: string; scope: string }>('capped');
    let kept = 0;
    for (let i = 0; i < job.count; i++) {
      const result = await insertWithinCap(col, { _id: `${job.name}-${i}`, scope: job.scope }, { scope: job.scope }, CAP_FOR_WRITERS);
      if (result.inserted) kept++;
    }
    return kept;
  },

  /** Adds 1 to the running total `count` times; returns the entry numbers this writer appended. */
  async append(db: Db, job: WriterJob): Promise<number[]> {
    const log = tallyLog(db);
    const mine: number[] = [];
    for (let i = 0; i < job.count; i++) {
      const { entry } = await log.append(job.scope, (head) => ({ cum: (head?.value.cum ?? 0) + 1, by: job.name }));
      mine.push(entry!.n);
    }
    return mine;
  },

  /** Pushes `count` independent entries; returns their numbers. */
  async push(db: Db, job: WriterJob): Promise<number[]> {
    const log = tallyLog(db);
    const mine: number[] = [];
    for (let i = 0; i < job.count; i++) mine.push(await log.push(job.scope, { cum: 0, by: job.name }));
    return mine;
  },

  /** Raises hints `<scope>-1..count`, each once, to i (writer a) or i + 1 (writer b); returns how many raises it made. */
  async raiseHint(db: Db, job: WriterJob): Promise<number> {
    for (let i = 1; i <= job.count; i++) {
      await raiseHint(db.collection<{ _id: string; n: number }>('hints'), `${job.scope}-${i}`, { $max: { n: job.name === 'a' ? i : i + 1 } });
    }
    return job.count;
  },

  /**
   * `count` times: writes a document that has not expired and one that has, then sweeps at
   * SWEEP_NOW (while the other writer inserts and sweeps). Returns how many documents its sweeps deleted.
   */
  async insertAndSweep(db: Db, job: WriterJob): Promise<number> {
    const col = db.collection<ExpiringDoc>('expiring_shared');
    let deleted = 0;
    for (let i = 0; i < job.count; i++) {
      await col.insertOne({ _id: `${job.name}-live-${i}`, expires_at: new Date(SWEEP_NOW.getTime() + 1) });
      await col.insertOne({ _id: `${job.name}-dead-${i}`, expires_at: SWEEP_NOW });
      deleted += await sweepExpired(col, SWEEP_NOW);
    }
    return deleted;
  },

  /**
   * The store's own conditional update, measured: read the counter, `updateOne({_id, v})` to v+1,
   * retried until it reports a match. Returns how many updates this writer was told succeeded.
   */
  async conditionalUpdate(db: Db, job: WriterJob): Promise<number> {
    const col = db.collection<{ _id: string; v: number }>('counters');
    let told = 0;
    for (let i = 0; i < job.count; i++) {
      for (;;) {
        const doc = await col.findOne({ _id: job.scope });
        const v = doc?.v ?? 0;
        const result = await col.updateOne({ _id: job.scope, v }, { $set: { v: v + 1 } });
        if (result.modifiedCount === 1) {
          told++;
          break;
        }
      }
    }
    return told;
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

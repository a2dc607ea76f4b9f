import { Collection, Document, MongoServerError } from 'mongodb';

/** Server codes meaning "this option is not implemented" (FerretDB answers 238 for expireAfterSeconds). */
const NOT_IMPLEMENTED = new Set([238, 115]);

/** Deletes per command: the embedded store holds its one write lock for a whole command (a minute's limit blocks: 3–5 s at once). */
const PURGE_BATCH = 20;

/** Ids held per read: after a long stop days of limit blocks expire at once, and memory stays bounded. */
const PURGE_SCAN = 1_000;

/** Deletes what expired by `now`: ids read PURGE_SCAN at a time (a read holds no lock), then PURGE_BATCH `_id` deletes per command. */
export async function sweepExpired(collection: Collection<any>, now: Date = new Date()): Promise<number> {
  const expired = { expires_at: { $lte: now } };
  let deleted = 0;
  let ids: unknown[];
  do {
    ids = (await collection.find(expired, { projection: { _id: 1 }, limit: PURGE_SCAN }).toArray()).map((doc) => doc._id);
    for (let i = 0; i < ids.length; i += PURGE_BATCH) {
      const batch = ids.slice(i, i + PURGE_BATCH).map((_id) => ({ deleteOne: { filter: { _id, ...expired } } }));
      deleted += (await collection.bulkWrite(batch, { ordered: false })).deletedCount;
    }
  } while (ids.length === PURGE_SCAN);
  return deleted;
}

/** A TTL index on `expires_at`, or where the server refuses one (FerretDB) a purge timer that stop() ends; reads that care filter on the date. */
export class ExpirySweepers {
  private readonly timers = new Set<NodeJS.Timeout>();

  async ensureExpiry<T extends Document>(collection: Collection<T>): Promise<'ttl-index' | 'purge-timer'> {
    try {
      await collection.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0, name: 'expires_at_ttl' });
      return 'ttl-index';
    } catch (err) {
      if (!(err instanceof MongoServerError) || !NOT_IMPLEMENTED.has(Number(err.code))) throw err;
    }
    const purge = () => void sweepExpired(collection).catch(() => undefined /* retried next tick */);
    const timer = setInterval(purge, 60_000);
    timer.unref();
    this.timers.add(timer);
    return 'purge-timer';
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
  }
}

import { Collection, Document, MongoServerError } from 'mongodb';

/** Server codes meaning "this option is not implemented" (FerretDB answers 238 for expireAfterSeconds). */
const NOT_IMPLEMENTED = new Set([238, 115]);

/** Per command: the embedded store holds its one write lock for a whole command (a minute's limit blocks: 3–5 s at once, up to 0.9 s per 100). */
const PURGE_BATCH = 20;

/** Deletes what expired by `now`, PURGE_BATCH `_id`s (an indexed lookup) per command, until a short batch or one another sweep took. */
export async function sweepExpired(collection: Collection<any>, now: Date = new Date()): Promise<number> {
  const expired = { expires_at: { $lte: now } };
  for (let deleted = 0; ; ) {
    const batch = await collection.find(expired, { projection: { _id: 1 }, limit: PURGE_BATCH }).toArray();
    const gone = batch.length && (await collection.bulkWrite(batch.map(({ _id }) => ({ deleteOne: { filter: { _id, ...expired } } })), { ordered: false })).deletedCount;
    deleted += gone;
    if (batch.length < PURGE_BATCH || gone === 0) return deleted;
  }
}

/** A TTL index on `expires_at`, or where the server refuses one (FerretDB) a purge timer that stop() ends; reads that care filter on the date. */
export class ExpirySweepers {
  private readonly timers = new Set<NodeJS.Timeout>();

  async ensureExpiry<T extends Document>(
    collection: Collection<T>,
    /** ttlOnly: where there is no TTL index, keep expired documents rather than purge them by a timer (see the caller for why). */
    options: { ttlOnly?: boolean } = {},
  ): Promise<'ttl-index' | 'purge-timer' | 'kept'> {
    try {
      await collection.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0, name: 'expires_at_ttl' });
      return 'ttl-index';
    } catch (err) {
      if (!(err instanceof MongoServerError) || !NOT_IMPLEMENTED.has(Number(err.code))) throw err;
    }
    if (options.ttlOnly) return 'kept';
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

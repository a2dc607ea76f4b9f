import { Collection, Document, MongoServerError } from 'mongodb';

/** Server codes meaning "this option is not implemented" (FerretDB answers 238 for expireAfterSeconds). */
const NOT_IMPLEMENTED = new Set([238, 115]);

/** Deletes the documents of `collection` whose `field` is at or before `now`: one sweep. */
export async function sweepExpired(collection: Collection<any>, field: string, now: Date = new Date()): Promise<number> {
  return (await collection.deleteMany({ [field]: { $lte: now } })).deletedCount;
}

/**
 * Expire at a time: a date field plus a sweep. Which path runs where, chosen by capability:
 * - FerretDB (the embedded store, every test) answers "not implemented" to a TTL index, and gets
 *   a purge timer instead, owned by this object (whoever builds it, one per platform, stops its
 *   timers and no one else's): sweepExpired every purgeIntervalMs.
 * - Real MongoDB gets a TTL index (expireAfterSeconds: 0) and its server-side sweep.
 * The TTL path is a strict subset of the tested behaviour because deletion is only housekeeping:
 * every read that cares about expiry filters on the date itself, so correctness never depends on
 * when (or whether) expired documents are removed; the suites in test/integration/store-primitives
 * hold on a store that never deletes them.
 */
export class ExpirySweepers {
  private readonly timers = new Set<NodeJS.Timeout>();

  async ensureExpiry<T extends Document>(
    collection: Collection<T>,
    field: string,
    /** ttlOnly: where there is no TTL index, keep expired documents rather than purge them by a timer (see the caller for why). */
    options: { purgeIntervalMs?: number; ttlOnly?: boolean } = {},
  ): Promise<'ttl-index' | 'purge-timer' | 'kept'> {
    try {
      await collection.createIndex({ [field]: 1 }, { expireAfterSeconds: 0, name: `${field}_ttl` });
      return 'ttl-index';
    } catch (err) {
      if (!(err instanceof MongoServerError) || !NOT_IMPLEMENTED.has(Number(err.code))) throw err;
    }
    if (options.ttlOnly) return 'kept';
    await collection.createIndex({ [field]: 1 }, { name: `${field}_expiry` });
    const purge = () => void sweepExpired(collection, field).catch(() => undefined /* retried next tick */);
    const timer = setInterval(purge, options.purgeIntervalMs ?? 60_000);
    timer.unref();
    this.timers.add(timer);
    return 'purge-timer';
  }

  /** Purge timers running. */
  get running(): number {
    return this.timers.size;
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
  }
}

import { Collection, Db, MongoBulkWriteError, MongoServerError } from 'mongodb';
import { DUPLICATE_KEY, isDuplicateKeyError } from './mongo';
import { ensureExpiry } from './ttl';

interface SlotDoc {
  _id: string;
  scope: string;
  k: number;
  expires_at: Date;
}

interface PendingClaim {
  doc: SlotDoc;
  resolve: (claimed: boolean) => void;
  reject: (err: unknown) => void;
}

/** Claims made in the same tick go to the store as one insertMany of at most this many documents. */
const MAX_BATCH = 256;

/**
 * `limit_slots`: one document per admitted call in a burst window or billing period.
 * `_id` = scope#k, so each slot can be claimed by exactly one caller (see RateLimiter).
 *
 * Every call of the hot path touches this collection by `_id` only: the embedded store
 * (FerretDB on SQLite) pushes down nothing but `_id` equality, so any other filter is a scan
 * of the whole collection. Claims made concurrently are grouped into one unordered
 * insertMany (one SQLite transaction instead of one per call); each document is still its
 * own unique insert, so the result of every claim is exactly what a single insert would say.
 */
export class LimitSlots {
  private readonly col: Collection<SlotDoc>;
  private queue: PendingClaim[] = [];
  private flushScheduled = false;

  constructor(db: Db) {
    this.col = db.collection<SlotDoc>('limit_slots');
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ scope: 1, k: -1 });
    await ensureExpiry(this.col, 'expires_at');
  }

  claimSlot(scope: string, k: number, expiresAt: Date): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ doc: { _id: `${scope}#${k}`, scope, k, expires_at: expiresAt }, resolve, reject });
      if (this.queue.length >= MAX_BATCH) this.flush();
      else if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  async releaseSlot(scope: string, k: number): Promise<void> {
    await this.col.deleteOne({ _id: `${scope}#${k}` });
  }

  /**
   * An estimate of the highest taken slot of `scope`, found by `_id` lookups only: an
   * exponential then binary search upwards from `from` (a slot known or assumed taken).
   * Exact when the taken slots above `from` are contiguous; a hole left by a released slot
   * can make it lower, which only costs the caller a failed claim (see RateLimiter.claim).
   */
  async highestSlot(scope: string, from = 0): Promise<number> {
    let low = from; // taken (or 0)
    let step = 1;
    while (await this.exists(scope, low + step)) {
      low += step;
      step *= 2;
    }
    let high = low + step; // not taken
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (await this.exists(scope, mid)) low = mid;
      else high = mid;
    }
    return low;
  }

  /** Every taken slot of `scope`. A scan on the embedded store: the limiter calls it only when a scope looks full. */
  async takenSlots(scope: string): Promise<number[]> {
    const docs = await this.col.find({ scope }, { projection: { k: 1 } }).toArray();
    return docs.map((d) => d.k);
  }

  private async exists(scope: string, k: number): Promise<boolean> {
    return (await this.col.findOne({ _id: `${scope}#${k}` }, { projection: { _id: 1 } })) !== null;
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) void this.insert(batch);
  }

  private async insert(batch: PendingClaim[]): Promise<void> {
    if (batch.length === 1) {
      const [claim] = batch;
      try {
        await this.col.insertOne(claim.doc);
        claim.resolve(true);
      } catch (err) {
        if (isDuplicateKeyError(err)) claim.resolve(false);
        else claim.reject(err);
      }
      return;
    }
    try {
      await this.col.insertMany(
        batch.map((c) => c.doc),
        { ordered: false },
      );
      for (const claim of batch) claim.resolve(true);
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError) || err.writeConcernError) {
        for (const claim of batch) claim.reject(err);
        return;
      }
      // Unordered: every document was tried; the ones listed failed, all others were inserted.
      const writeErrors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
      const failed = new Map(writeErrors.map((e) => [e.index, e]));
      batch.forEach((claim, index) => {
        const error = failed.get(index);
        if (!error) claim.resolve(true);
        else if (error.code === DUPLICATE_KEY) claim.resolve(false);
        else claim.reject(new MongoServerError({ message: error.errmsg ?? 'insert failed', code: error.code }));
      });
    }
  }
}

import { Collection, Db, MongoBulkWriteError, MongoServerError } from 'mongodb';
import { DUPLICATE_KEY } from './mongo';
import { insertUnique, memberId, probeGalloping } from './unique-sequence';
import type { ExpirySweepers } from './ttl';

/**
 * One entry of a scope's block log: entry n grants `delta` calls (a block claimed) or, when
 * negative, gives that many back; `cum` is the scope's running total, entry n-1's cum + delta.
 */
export interface BlockEntry {
  n: number;
  delta: number;
  cum: number;
}

interface BlockDoc extends BlockEntry {
  _id: string;
  scope: string;
  expires_at: Date;
}

interface PendingAppend {
  doc: BlockDoc;
  resolve: (appended: boolean) => void;
  reject: (err: unknown) => void;
}

/** Appends made in the same tick go to the store as one insertMany of at most this many documents. */
const MAX_BATCH = 256;

/**
 * `limit_blocks`: the log of calls granted in each burst window or billing period (a "scope").
 * `_id` = scope#n, so entry n is written by exactly one process, and as each entry's running
 * total derives from the entry before it, the log is one total order that no two processes can
 * fork: the exactness of the limits rests on this unique insert alone (FerretDB applies no
 * read-modify-write atomically, but it does enforce unique `_id`s). See BlockLimiter.
 *
 * A unique sequence (unique-sequence.ts): every access is by `_id`, and the latest entry is found
 * by a galloping search over `_id` lookups. Appends made
 * concurrently, for any scopes, are grouped into one unordered insertMany (one SQLite transaction
 * instead of one per entry); each document is still its own unique insert.
 */
export class LimitBlocks {
  private readonly col: Collection<BlockDoc>;
  private queue: PendingAppend[] = [];
  private flushScheduled = false;

  constructor(db: Db) {
    this.col = db.collection<BlockDoc>('limit_blocks');
  }

  async ensureIndexes(expiry: ExpirySweepers): Promise<void> {
    await expiry.ensureExpiry(this.col, 'expires_at');
  }

  /** false when entry `entry.n` of `scope` was written first by someone else. */
  append(scope: string, entry: BlockEntry, expiresAt: Date): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ doc: { _id: memberId(scope, entry.n), scope, ...entry, expires_at: expiresAt }, resolve, reject });
      if (this.queue.length >= MAX_BATCH) this.flush();
      else if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** The latest entry of `scope`, searching upwards from `known` (an entry that exists), or null for an empty log. */
  async latest(scope: string, known: BlockEntry | null): Promise<BlockEntry | null> {
    return (await probeGalloping((n) => this.read(scope, n), { n: known?.n ?? 0, doc: known })).doc;
  }

  private async read(scope: string, n: number): Promise<BlockEntry | null> {
    const doc = await this.col.findOne({ _id: memberId(scope, n) }, { projection: { n: 1, delta: 1, cum: 1 } });
    return doc ? { n: doc.n, delta: doc.delta, cum: doc.cum } : null;
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) void this.insert(batch);
  }

  private async insert(batch: PendingAppend[]): Promise<void> {
    if (batch.length === 1) {
      const [append] = batch;
      await insertUnique(this.col, append.doc).then(append.resolve, append.reject);
      return;
    }
    try {
      await this.col.insertMany(
        batch.map((c) => c.doc),
        { ordered: false },
      );
      for (const append of batch) append.resolve(true);
    } catch (err) {
      if (!(err instanceof MongoBulkWriteError) || err.writeConcernError) {
        for (const append of batch) append.reject(err);
        return;
      }
      // Unordered: every document was tried; the ones listed failed, all others were inserted.
      const writeErrors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
      const failed = new Map(writeErrors.map((e) => [e.index, e]));
      batch.forEach((append, index) => {
        const error = failed.get(index);
        if (!error) append.resolve(true);
        else if (error.code === DUPLICATE_KEY) append.resolve(false);
        else append.reject(new MongoServerError({ message: error.errmsg ?? 'insert failed', code: error.code }));
      });
    }
  }
}

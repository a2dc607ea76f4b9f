import { Collection, Db } from 'mongodb';
import { AppendLog, changeFeed, type ChangeFeed, type LogFormat } from './store-primitives';

/**
 * What a process that caches records must forget: one key (revoked), every key of an account (its
 * tier changed), or an account's endpoint list (an endpoint created, changed or deleted).
 */
export type Invalidation =
  | { kind: 'key_revoked'; key_hash: string }
  | { kind: 'tier_set'; account_id: string }
  | { kind: 'endpoints_changed'; account_id: string };

type LoggedInvalidation = Invalidation & { at: Date };

type InvalidationDoc = LoggedInvalidation & {
  /** `invalidations#<n>`: entry n of the one platform-wide log (store-primitives/append-log.ts). */
  _id: string;
  n: number;
};

const SCOPE = 'invalidations';

const format: LogFormat<LoggedInvalidation, InvalidationDoc> = {
  toDoc: (_scope, n, value) => ({ ...value, n }),
  fromDoc: (doc) =>
    doc.kind === 'key_revoked' ? { kind: doc.kind, key_hash: doc.key_hash, at: doc.at } : { kind: doc.kind, account_id: doc.account_id, at: doc.at },
};

const shared = new WeakMap<Db, CacheInvalidations>();

/**
 * The log of a database, one object per process: the repositories that append to it and the
 * follower that reads it share what they have seen of its end, so no append searches again for
 * what another already found.
 */
export function cacheInvalidationsOf(db: Db): CacheInvalidations {
  let log = shared.get(db);
  if (!log) shared.set(db, (log = new CacheInvalidations(db)));
  return log;
}

/**
 * Use cacheInvalidationsOf(db): one per database and process.
 *
 * `cache_invalidations`: the log every process follows (cache-invalidation-follower.ts) to drop
 * cached keys and endpoint lists, so none re-reads them every second to honour "a revoked key is
 * refused by every process within 1 s". A writer appends after its own write. One append log
 * (store-primitives/append-log.ts); entries are tiny and rare, and kept: finding the end needs them.
 */
export class CacheInvalidations {
  private readonly log: AppendLog<LoggedInvalidation, InvalidationDoc>;
  /** This process's caches: told of its own appends at once, not a poll later. */
  private readonly listeners = new Set<(invalidation: Invalidation) => void>();
  /** What changed since a position: what the follower reads. */
  readonly changes: ChangeFeed<Invalidation>;

  constructor(db: Db) {
    const col: Collection<InvalidationDoc> = db.collection<InvalidationDoc>('cache_invalidations');
    this.log = new AppendLog(col, format);
    this.changes = changeFeed(this.log, SCOPE);
  }

  async ensureIndexes(): Promise<void> {
    /* `_id` lookups only; entries are kept (see above). */
  }

  /** Tells `listener` of every entry this process appends, before it is logged; returns the unsubscribe. */
  onAppend(listener: (invalidation: Invalidation) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Appends `invalidation` (racing writers each get their own n). This process's listeners hear
   * first, so its caches drop their copies even if the append fails (the caller may then repeat it).
   */
  async append(invalidation: Invalidation, at: Date = new Date()): Promise<number> {
    for (const listener of this.listeners) listener(invalidation);
    return this.log.push(SCOPE, { ...invalidation, at });
  }
}

import { Collection, Db } from 'mongodb';
import { insertUnique, memberId, probeGalloping } from './unique-sequence';

/**
 * What a process that caches records must forget: one key (revoked), every key of an account (its
 * tier changed), or an account's endpoint list (an endpoint created, changed or deleted).
 */
export type Invalidation =
  | { kind: 'key_revoked'; key_hash: string }
  | { kind: 'tier_set'; account_id: string }
  | { kind: 'endpoints_changed'; account_id: string };

type InvalidationDoc = Invalidation & {
  /** `invalidations#<n>`: entry n is written by exactly one writer (unique-sequence.ts). */
  _id: string;
  n: number;
  at: Date;
};

const SCOPE = 'invalidations';

const shared = new WeakMap<Db, CacheInvalidations>();

/**
 * The log of a database, one object per process: the repositories that append to it and the
 * follower that reads it share what they have seen of its end, so no append probes again what
 * another already found.
 */
export function cacheInvalidationsOf(db: Db): CacheInvalidations {
  let log = shared.get(db);
  if (!log) shared.set(db, (log = new CacheInvalidations(db)));
  return log;
}

/**
 * Use cacheInvalidationsOf(db): one per database and process.
 *
 * `cache_invalidations`: the log every process follows to drop what it caches
 * (services/cache-invalidation-follower.ts): keys (key-authenticator.ts) and account endpoint
 * lists (account-endpoints-cache.ts). So a process need not re-read each cached key twice a
 * second to honour "a revoked key is refused by every process within 1 s", nor each account's
 * endpoints every second. A writer appends after its own write (a process that drops its copy then
 * reads the new state). One sequence for the platform; entries are tiny and as rare as changes
 * to keys, tiers and endpoints, so they are kept (a follower that starts finds the end by a
 * galloping `_id` probe, which needs every entry to stay). On real MongoDB a change stream on the
 * three collections could replace it.
 */
export class CacheInvalidations {
  private readonly col: Collection<InvalidationDoc>;
  /** The last entry this process saw: an append starts its probe there. */
  private known = 0;
  /** This process's caches: told of its own appends at once, not a poll later. */
  private readonly listeners = new Set<(invalidation: Invalidation) => void>();

  constructor(db: Db) {
    this.col = db.collection<InvalidationDoc>('cache_invalidations');
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
   * Appends `invalidation` after every entry already there (racing writers each get their own n).
   * This process's listeners hear of it first: the change it announces is already written, so
   * this process's caches drop their copies even if logging it then fails (the writer's caller
   * sees the failure and may repeat the change, which logs it again). The insert is tried at the
   * end this process knows; only a taken number costs a probe.
   */
  async append(invalidation: Invalidation, at: Date = new Date()): Promise<number> {
    for (const listener of this.listeners) listener(invalidation);
    let n = this.known;
    for (;;) {
      const doc = { ...invalidation, _id: memberId(SCOPE, n + 1), n: n + 1, at } as InvalidationDoc;
      if (await insertUnique(this.col, doc)) {
        this.known = Math.max(this.known, n + 1);
        return n + 1;
      }
      n = await this.end(n + 1);
    }
  }

  /** The number of the last entry (0 for none): a galloping probe from what this process saw last. */
  async end(from = this.known): Promise<number> {
    const { n } = await probeGalloping((i) => this.entry(i), { n: from, doc: null });
    this.known = Math.max(this.known, n);
    return n;
  }

  /** Entries after `n`, oldest first, up to `max` (one `_id` lookup each, plus one that finds nothing). */
  async after(n: number, max = 100): Promise<Array<Invalidation & { n: number }>> {
    const found: Array<Invalidation & { n: number }> = [];
    while (found.length < max) {
      const doc = await this.entry(n + found.length + 1);
      if (!doc) break;
      found.push(doc.kind === 'key_revoked' ? { kind: doc.kind, key_hash: doc.key_hash, n: doc.n } : { kind: doc.kind, account_id: doc.account_id, n: doc.n });
    }
    this.known = Math.max(this.known, n + found.length);
    return found;
  }

  private entry(n: number): Promise<InvalidationDoc | null> {
    return this.col.findOne({ _id: memberId(SCOPE, n) });
  }
}

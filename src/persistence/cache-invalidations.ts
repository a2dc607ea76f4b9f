import type { Db } from 'mongodb';
import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';

/** What a caching process must forget: one key (revoked), an account's keys (tier), its endpoint list or its event-type schemas. */
export type Invalidation =
  | { kind: 'key_revoked'; key_hash: string }
  | { kind: 'tier_set'; account_id: string }
  | { kind: 'endpoints_changed'; account_id: string }
  | { kind: 'event_types_changed'; account_id: string };

type InvalidationDoc = Invalidation & ExpiringDoc & { at: Date };

/** The number of the last entry reserved, in `cache_invalidation_counter`. */
interface CounterDoc {
  _id: string;
  n: number;
}

const COUNTER = 'invalidations';
const entryId = (n: number) => `invalidations#${n}`;

/** Entries are kept a day: a follower further behind has lost its place anyway and starts afresh (cache-invalidation-follower.ts). */
const ENTRY_KEPT_MS = 86_400_000;

const shared = new WeakMap<Db, CacheInvalidations>();

/** One log object per database and process, so that its appends reach this process's caches at once. */
export function cacheInvalidationsOf(db: Db): CacheInvalidations {
  let log = shared.get(db);
  if (!log) shared.set(db, (log = new CacheInvalidations(db)));
  return log;
}

/** Use cacheInvalidationsOf(db); followed by every process to drop cached keys and endpoint lists. Entry n: a number from a counter, then its insert. */
export class CacheInvalidations extends ExpiringCollection<InvalidationDoc>('cache_invalidations') {
  private readonly counter = this.db.collection<CounterDoc>('cache_invalidation_counter');
  /** This process's caches: told of its own appends at once, not a poll later. */
  private readonly listeners = new Set<(invalidation: Invalidation) => void>();

  /** Tells `listener` of every entry this process appends, before it is logged. */
  onAppend(listener: (invalidation: Invalidation) => void): void {
    this.listeners.add(listener);
  }

  /** Listeners hear first, so this process's caches drop their copies even if the append fails. */
  async append(invalidation: Invalidation, at: Date = new Date()): Promise<number> {
    for (const listener of this.listeners) listener(invalidation);
    const { n } = (await this.counter.findOneAndUpdate({ _id: COUNTER }, { $inc: { n: 1 } }, { upsert: true, returnDocument: 'after' })) as CounterDoc;
    await this.col.insertOne({ _id: entryId(n), ...invalidation, at, expires_at: new Date(at.getTime() + ENTRY_KEPT_MS) });
    return n;
  }

  /** The number of the last entry reserved (0: none yet): those up to it are written, or being written by their appender. */
  async position(): Promise<number> {
    return (await this.counter.findOne({ _id: COUNTER }))?.n ?? 0;
  }

  /** Entries `from` to `to` (at most 100 or so: one `_id` lookup each, all at once), null where one is not written (yet). */
  entries(from: number, to: number): Promise<Array<Invalidation | null>> {
    return Promise.all(Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => this.col.findOne({ _id: entryId(from + i) })));
  }
}

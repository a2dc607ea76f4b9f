import type { Db } from 'mongodb';
import { StoreCollection } from './store-collection';
import { AppendLog, type LogEntry } from './store-primitives';

/** What a caching process must forget: one key (revoked), an account's keys (tier) or its endpoint list. */
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

const shared = new WeakMap<Db, CacheInvalidations>();

/** One log object per database and process: appenders and the follower share what they found of its end. */
export function cacheInvalidationsOf(db: Db): CacheInvalidations {
  let log = shared.get(db);
  if (!log) shared.set(db, (log = new CacheInvalidations(db)));
  return log;
}

/** Use cacheInvalidationsOf(db); followed by every process to drop cached keys and endpoint lists. Kept (tiny, rare): finding the end needs them. */
export class CacheInvalidations extends StoreCollection<InvalidationDoc>('cache_invalidations') {
  private readonly log = new AppendLog<LoggedInvalidation, InvalidationDoc>(this.col, {
    toDoc: (_scope, n, value) => ({ ...value, n }),
    fromDoc: (doc) =>
      doc.kind === 'key_revoked' ? { kind: doc.kind, key_hash: doc.key_hash, at: doc.at } : { kind: doc.kind, account_id: doc.account_id, at: doc.at },
  });
  /** This process's caches: told of its own appends at once, not a poll later. */
  private readonly listeners = new Set<(invalidation: Invalidation) => void>();

  /** Tells `listener` of every entry this process appends, before it is logged. */
  onAppend(listener: (invalidation: Invalidation) => void): void {
    this.listeners.add(listener);
  }

  /** Listeners hear first, so this process's caches drop their copies even if the append fails. */
  async append(invalidation: Invalidation, at: Date = new Date()): Promise<number> {
    for (const listener of this.listeners) listener(invalidation);
    return this.log.push(SCOPE, { ...invalidation, at });
  }

  /** The number of the last entry (0: none yet). */
  async position(): Promise<number> {
    return (await this.log.head(SCOPE))?.n ?? 0;
  }

  /** The entries after entry `position`, oldest first, at most `max`: none is read twice or skipped. */
  since(position: number, max?: number): Promise<Array<LogEntry<Invalidation>>> {
    return this.log.readSince(SCOPE, position, max);
  }
}

import { Collection, Db, Filter } from 'mongodb';
import { isEventId } from '../domain/webhooks/event-id';
import { EventIds, storedEventId as storedId } from './event-ids';
import type { EventsAwaitingHandOver } from './events-awaiting-hand-over';
import { claimOnce } from './store-primitives';

/**
 * What the collection holds. The caller's `data` is kept only inside `body` (the exact
 * delivered JSON), because arbitrary JSON is not always a storable document: keys with `.`
 * or `$` or NUL, and nested arrays (FerretDB), are refused by the store or the driver, and
 * "delivered unchanged" must hold for every JSON object.
 *
 * `_id` is the public integer id as a 16-digit zero-padded string: the embedded store answers
 * only `{_id: <string>}` from an index (an integer `_id` is a full scan there), and the padding
 * keeps string order equal to numeric order for listing.
 */
interface StoredEventDoc {
  _id: string;
  account_id: string;
  type: string;
  body: string;
  timestamp: number;
  idempotency_key: string | null;
  endpoint_ids: string[];
  /** The endpoints' URLs at ingest, shown until an attempt records the URL it used. */
  endpoint_urls?: string[];
  /** The API process (instance lease id) that accepted the event and owes its dispatch. */
  owner?: string;
  created_at: Date;
}

export interface EventDoc {
  /** Positive integer, unique across the platform; claimed by a race-free insert. */
  _id: number;
  account_id: string;
  type: string;
  /** Read back from `body`; never stored as a document of its own. */
  data: Record<string, unknown>;
  /** The exact body bytes every attempt sends. */
  body: string;
  timestamp: number;
  idempotency_key: string | null;
  /** Endpoints matched at ingest: the delivery set, fixed for the event's life. */
  endpoint_ids: string[];
  endpoint_urls: string[];
  owner: string | null;
  created_at: Date;
}

/** What a list needs to decide a page: enough to derive the status, not the body. */
export type EventSummary = Pick<EventDoc, '_id' | 'endpoint_ids' | 'endpoint_urls' | 'created_at'>;

/** `owner` is set from the acceptance when there is one (insertWithNextId). */
export type NewEvent = Omit<EventDoc, '_id' | 'body' | 'data' | 'owner'> & { data: Record<string, unknown>; owner?: string | null };

/** The API process accepting an event: its instance lease id, and the events it has yet to hand over. */
export interface Acceptance {
  instanceId: string;
  awaiting: EventsAwaitingHandOver;
}

/** What retention needs of an event to remove it and what hangs off it: no body. */
export type EventRetentionView = Pick<EventDoc, '_id' | 'account_id' | 'idempotency_key' | 'endpoint_ids' | 'created_at'>;

/** Far below the shortest retention (config.ts): a hint this young is above every id retention has removed. */
const HINT_TRUST_MS = 3_600_000;

/** `events`: every read is scoped to its account, except the delivery path's and crash recovery's. */
export class Events {
  private readonly col: Collection<StoredEventDoc>;
  /** The id sequence: ids are handed out there, by small claims, before an event is stored once. */
  readonly ids: EventIds;
  /** The last id this process tried (null until read from the store). */
  private hint: number | null = null;
  /** When the hint was last learned from the store (ms). */
  private hintLearnedAt = 0;
  private hintLoading?: Promise<void>;

  constructor(db: Db, private readonly now: () => number = Date.now) {
    this.col = db.collection<StoredEventDoc>('events');
    this.ids = new EventIds(db, () => this.maxStoredId());
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ account_id: 1, _id: -1 });
    await this.col.createIndex({ account_id: 1, type: 1, _id: -1 });
  }

  /**
   * The highest id handed out (every stored event's id is at most this): `_id` lookups of the
   * small claims of the id sequence (event-ids.ts), never a read of the events.
   */
  maxId(): Promise<number> {
    return this.ids.head();
  }

  /** A sort of the whole collection on the embedded store: only to start the id sequence of a database that has none. */
  private async maxStoredId(): Promise<number> {
    const last = await this.col.find({}, { projection: { _id: 1 } }).sort({ _id: -1 }).limit(1).toArray();
    return last[0] ? Number(last[0]._id) : 0;
  }

  /**
   * Inserts the event under the next free integer id. The id is claimed first with a small
   * document (EventIds.claim: a unique `_id` decides between concurrent inserters in any
   * process); a claim that loses means another process is ahead, and its head is found by `_id`
   * lookups of claims, so the event itself is inserted once. With an `acceptance`, the event
   * names the accepting process, and its id enters that process's events awaiting hand-over
   * before its claim is sent (and leaves if the insert fails): the process's lease never records
   * a hand-over past an event that may exist before this returns (events-awaiting-hand-over.ts).
   */
  async insertWithNextId(doc: NewEvent, bodyFor: (id: number) => string, acceptance?: Acceptance): Promise<EventDoc> {
    for (;;) {
      await this.highestIdTried();
      // Synchronous after the await: concurrent inserters of this process never pick the same id.
      const id = (this.hint as number) + 1;
      this.hint = id;
      acceptance?.awaiting.enter(id);
      let claimed = false;
      let stored: EventDoc | null = null;
      try {
        claimed = await this.ids.claim(id, doc.created_at);
        if (claimed) {
          const full: EventDoc = { ...doc, owner: acceptance?.instanceId ?? doc.owner ?? null, _id: id, body: bodyFor(id) };
          // A duplicate here is an event stored before its database had an id sequence: the next id is tried.
          if (await claimOnce(this.col, toStored(full))) stored = full;
        }
      } finally {
        if (!stored) acceptance?.awaiting.leave(id);
      }
      if (stored) return stored;
      if (!claimed) this.hint = Math.max(this.hint as number, await this.ids.headFrom(id));
    }
  }

  /**
   * The last id this process tried; every event it inserted has an id at most this. Learned
   * from the store again once it is older than HINT_TRUST_MS: retention removes the claims of ids
   * handed out long ago (event-ids.ts), and an older hint could hand one of them out again.
   */
  async highestIdTried(): Promise<number> {
    if (this.hint === null || this.now() - this.hintLearnedAt > HINT_TRUST_MS) {
      this.hintLoading ??= (async () => {
        const learnedAt = this.now();
        const head = await this.ids.head(this.hint ?? 0);
        this.hint = Math.max(this.hint ?? 0, head);
        this.hintLearnedAt = learnedAt;
      })().finally(() => (this.hintLoading = undefined));
      await this.hintLoading;
    }
    return this.hint as number;
  }

  /** A `{_id}` point read; the owner is checked here, so another account's event is simply not found. */
  async find(accountId: string, id: number): Promise<EventDoc | null> {
    const doc = await this.findUnscoped(id);
    return doc && doc.account_id === accountId ? doc : null;
  }

  /** Without the account check: for the delivery path and crash recovery, which act for the platform. */
  async findUnscoped(id: number): Promise<EventDoc | null> {
    if (!isEventId(id)) return null;
    return hydrate(await this.col.findOne({ _id: storedId(id) }));
  }

  /**
   * Newest first, `limit` at most, below `beforeId`, without the bodies (a page reads only the
   * bodies it returns, by id). A scan on the embedded store, indexed on MongoDB.
   */
  async list(accountId: string, options: { limit: number; beforeId?: number; type?: string }): Promise<EventSummary[]> {
    const filter: Filter<StoredEventDoc> = { account_id: accountId };
    if (options.beforeId !== undefined) filter._id = { $lt: storedId(options.beforeId) };
    if (options.type) filter.type = options.type;
    const docs = await this.col
      .find(filter, { projection: { body: 0 } })
      .sort({ _id: -1 })
      .limit(options.limit)
      .toArray();
    return docs.map((d) => ({ _id: Number(d._id), endpoint_ids: d.endpoint_ids, endpoint_urls: d.endpoint_urls ?? d.endpoint_ids.map(() => ''), created_at: d.created_at }));
  }

  async delete(id: number): Promise<void> {
    await this.col.deleteOne({ _id: storedId(id) });
  }

  /** Retention: an `{_id}` point read without the body. */
  async retentionView(id: number): Promise<EventRetentionView | null> {
    const doc = await this.col.findOne({ _id: storedId(id) }, { projection: { body: 0, endpoint_urls: 0 } });
    if (!doc) return null;
    return { _id: id, account_id: doc.account_id, idempotency_key: doc.idempotency_key, endpoint_ids: doc.endpoint_ids, created_at: doc.created_at };
  }

  /** Retention: one command of `{_id}` deletes. */
  async deleteAll(ids: number[]): Promise<void> {
    if (ids.length > 0) await this.col.bulkWrite(ids.map((id) => ({ deleteOne: { filter: { _id: storedId(id) } } })), { ordered: false });
  }
}

function toStored(doc: EventDoc): StoredEventDoc {
  const { data: _data, _id, owner, ...rest } = doc;
  return { ...rest, _id: storedId(_id), ...(owner ? { owner } : {}) };
}

function hydrate(doc: StoredEventDoc | null): EventDoc | null {
  if (!doc) return null;
  const { data } = JSON.parse(doc.body) as { data: Record<string, unknown> };
  return {
    _id: Number(doc._id),
    account_id: doc.account_id,
    type: doc.type,
    data,
    body: doc.body,
    timestamp: doc.timestamp,
    idempotency_key: doc.idempotency_key,
    endpoint_ids: doc.endpoint_ids,
    endpoint_urls: doc.endpoint_urls ?? doc.endpoint_ids.map(() => ''),
    owner: doc.owner ?? null,
    created_at: doc.created_at,
  };
}

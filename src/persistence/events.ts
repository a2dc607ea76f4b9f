import { Collection, Db, Filter } from 'mongodb';
import { insertUnique } from './unique-sequence';

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

export type NewEvent = Omit<EventDoc, '_id' | 'body' | 'data'> & { data: Record<string, unknown> };

const ID_DIGITS = 16;
const storedId = (id: number) => String(id).padStart(ID_DIGITS, '0');

/** `events`: every read is scoped to its account, except the delivery path's and crash recovery's. */
export class Events {
  private readonly col: Collection<StoredEventDoc>;
  /** The last id this process tried (null until read from the store once). */
  private hint: number | null = null;
  private hintLoading?: Promise<number>;

  constructor(db: Db) {
    this.col = db.collection<StoredEventDoc>('events');
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ account_id: 1, _id: -1 });
    await this.col.createIndex({ account_id: 1, type: 1, _id: -1 });
  }

  /** The highest id stored (a scan on the embedded store: start-up and crash recovery only). */
  async maxId(): Promise<number> {
    const last = await this.col.find({}, { projection: { _id: 1 } }).sort({ _id: -1 }).limit(1).toArray();
    return last[0] ? Number(last[0]._id) : 0;
  }

  /**
   * Inserts the event under the next free integer id, a unique sequence (unique-sequence.ts):
   * the unique _id decides between concurrent inserters (in any process); a loser simply tries
   * the next id. `claiming` is
   * told each id before its insert is sent, so a caller can account for an event that may
   * exist before this returns (see DeliveryOutbox.watermark).
   */
  async insertWithNextId(doc: NewEvent, bodyFor: (id: number) => string, claiming: (id: number, taken: boolean) => void = () => undefined): Promise<EventDoc> {
    for (;;) {
      await this.highestIdTried();
      // Synchronous after the await: concurrent inserters of this process never pick the same id.
      const id = (this.hint as number) + 1;
      this.hint = id;
      const full: EventDoc = { ...doc, _id: id, body: bodyFor(id) };
      claiming(id, true);
      let inserted = false;
      try {
        inserted = await insertUnique(this.col, toStored(full));
      } finally {
        if (!inserted) claiming(id, false);
      }
      if (inserted) return full;
    }
  }

  /** The last id this process tried; every event it inserted has an id at most this. */
  async highestIdTried(): Promise<number> {
    if (this.hint === null) {
      this.hintLoading ??= this.maxId();
      const max = await this.hintLoading;
      this.hint = Math.max(this.hint ?? 0, max);
    }
    return this.hint;
  }

  /** A `{_id}` point read; the owner is checked here, so another account's event is simply not found. */
  async find(accountId: string, id: number): Promise<EventDoc | null> {
    const doc = await this.findUnscoped(id);
    return doc && doc.account_id === accountId ? doc : null;
  }

  /** Without the account check: for the delivery path and crash recovery, which act for the platform. */
  async findUnscoped(id: number): Promise<EventDoc | null> {
    if (!Number.isSafeInteger(id) || id < 1) return null;
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

import { Collection, Db, Filter } from 'mongodb';
import type { EventStatus } from '../domain/webhooks/delivery-status';
import { isDuplicateKeyError } from './mongo';

/**
 * What the collection holds: an EventDoc without `data`. The caller's object is kept only
 * inside `body` (the exact delivered JSON), because arbitrary JSON is not always a storable
 * document: keys with `.` or `$` or NUL, and nested arrays (FerretDB), are refused by the store
 * or the driver, and "delivered unchanged" must hold for every JSON object.
 */
type StoredEventDoc = Omit<EventDoc, 'data'>;

export interface EventDoc {
  /** Positive integer, unique across the platform; claimed by a race-free insert. */
  _id: number;
  account_id: string;
  type: string;
  /** Read back from `body`; never stored as a document of its own (see StoredEventDoc). */
  data: Record<string, unknown>;
  /** The exact body bytes every attempt sends. */
  body: string;
  timestamp: number;
  idempotency_key: string | null;
  /** Endpoints matched at ingest: the delivery set, fixed for the event's life. */
  endpoint_ids: string[];
  /** The dispatch-queue ticket guarding this event's dispatch (see dispatch-queue.ts). */
  dispatch_ticket: string;
  /** Derived from the deliveries (kept current for filtering; reads recompute it). */
  status: EventStatus;
  created_at: Date;
}

/** `events`: every read is scoped to its account. */
export class Events {
  private readonly col: Collection<StoredEventDoc>;
  private nextIdHint = 0;

  constructor(db: Db) {
    this.col = db.collection<StoredEventDoc>('events');
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ account_id: 1, _id: -1 });
    await this.col.createIndex({ account_id: 1, type: 1, _id: -1 });
    await this.col.createIndex({ account_id: 1, status: 1, _id: -1 });
    await this.col.createIndex({ dispatch_ticket: 1 });
  }

  /**
   * Inserts the event under the next free integer id. The unique _id decides between
   * concurrent inserters (in any process); a loser simply tries the next id.
   */
  async insertWithNextId(doc: Omit<EventDoc, '_id' | 'body'>, bodyFor: (id: number) => string): Promise<EventDoc> {
    if (this.nextIdHint === 0) {
      const last = await this.col.find({}, { projection: { _id: 1 } }).sort({ _id: -1 }).limit(1).next();
      this.nextIdHint = Math.max(this.nextIdHint, last?._id ?? 0);
    }
    for (;;) {
      const id = ++this.nextIdHint;
      const full: EventDoc = { ...doc, _id: id, body: bodyFor(id) };
      const { data: _data, ...stored } = full;
      try {
        await this.col.insertOne(stored);
        return full;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
  }

  /** A plain `{_id}` lookup (the one filter the embedded FerretDB answers from an index), owner checked here. */
  async find(accountId: string, id: number): Promise<EventDoc | null> {
    const doc = await this.col.findOne({ _id: id });
    return doc && doc.account_id === accountId ? hydrate(doc) : null;
  }

  async findAny(id: number): Promise<EventDoc | null> {
    return hydrate(await this.col.findOne({ _id: id }));
  }

  async list(accountId: string, options: { limit: number; beforeId?: number; type?: string; status?: EventStatus }): Promise<EventDoc[]> {
    const filter: Filter<StoredEventDoc> = { account_id: accountId };
    if (options.beforeId !== undefined) filter._id = { $lt: options.beforeId };
    if (options.type) filter.type = options.type;
    if (options.status) filter.status = options.status;
    return (await this.col.find(filter).sort({ _id: -1 }).limit(options.limit).toArray()).map((d) => hydrate(d)!);
  }

  async setStatus(id: number, status: EventStatus): Promise<void> {
    await this.col.updateOne({ _id: id }, { $set: { status } });
  }

  /** Only the crash-recovery path asks this (a ticket whose ingest died). */
  async findByTicket(ticket: string): Promise<EventDoc | null> {
    return hydrate(await this.col.findOne({ dispatch_ticket: ticket }));
  }

  async delete(id: number): Promise<void> {
    await this.col.deleteOne({ _id: id });
  }
}

function hydrate(doc: StoredEventDoc | null): EventDoc | null {
  if (!doc) return null;
  const { data } = JSON.parse(doc.body) as { data: Record<string, unknown> };
  return { ...doc, data };
}

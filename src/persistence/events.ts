import { isEventId } from '../domain/webhooks/event-id';
import { parseExact } from '../domain/webhooks/exact-json';
import type { TakenPlace } from '../domain/webhooks/fifo-order';
import type { RecordOwner } from '../domain/webhooks/tenant';
import { EventIds } from './event-ids';
import { EventSequences } from './event-sequences';
import type { EventsAwaitingHandOver } from './events-awaiting-hand-over';
import { readBack } from './read-back';
import { StoreCollection } from './store-collection';
import { ownedBy, tenantKey } from './tenants';

/** `data` is kept only inside `body`, the exact delivered JSON: FerretDB cannot store keys with `.`, `$` or NUL, or nested arrays. */
interface StoredEventDoc extends Omit<EventDoc, 'data' | 'owner'> {
  owner?: string;
  /** The event's number in its account (event-sequences.ts): lists and retention walk `{account_id, seq}`. */
  seq: number;
  /** Per notice kind, the claimers that took one of the event's capped notices (claimNotice). */
  notices?: Record<string, string[]>;
  /** tenantKey(account_id, tenant_id) of a tenant's event: a tenant's list walks `{tenant_key, seq}` as the account's walks `{account_id, seq}`. */
  tenant_key?: string;
}

export interface EventDoc {
  /** Positive integer, unique across the platform (event-ids.ts). */
  _id: number;
  account_id: string;
  /** The tenant it is for (tenant.ts): it reaches that tenant's endpoints only; absent: the account's own endpoints only. */
  tenant_id?: string;
  type: string;
  data: Record<string, unknown>;
  /** The exact body bytes every attempt sends. */
  body: string;
  timestamp: number;
  idempotency_key: string | null;
  /** Endpoints matched at ingest: the delivery set, fixed for the event's life. */
  endpoint_ids: string[];
  /** The endpoints' URLs at ingest, shown until an attempt records the URL it used. */
  endpoint_urls: string[];
  /** The hand-over batch of the API process that accepted it (ownerTag): crash recovery finds it by this. */
  owner: string | null;
  created_at: Date;
  /** Its place in the queue of each FIFO endpoint it goes to (fifo-queues.ts), taken before it was stored; absent: none. */
  fifo_places?: Record<string, number>;
  /** The head of each of those queues as its place was taken (its deliveries' inputs carry it: see `turnOf`). */
  fifo_heads?: Record<string, number>;
  /** The W3C traceparent of the ingest that accepted it, when tracing was on: its deliveries join that trace. */
  traceparent?: string;
}

/** Where a list stopped, exclusive: below the account's number `s`. */
export type EventListPosition = { s: number };

/** What a list needs to decide a page: no body (a page reads only the bodies it returns, by id). */
export type EventSummary = Pick<EventDoc, '_id' | 'type' | 'endpoint_ids' | 'endpoint_urls' | 'created_at'> & { position: EventListPosition };

type StoredSummary = Omit<StoredEventDoc, 'body'>;
const SUMMARY = { projection: { body: 0 } } as const;

/** Events a list filtered by type examines per read. */
const TYPED_READ = 100;

/** `owner` is set from the acceptance when there is one (insertWithNextId). */
export type NewEvent = Omit<EventDoc, '_id' | 'body' | 'owner'> & { owner?: string | null };

/** An insert sent and unanswered: the event may be stored; its id awaits hand-over until `holds` tells. */
export class EventInsertUnanswered extends Error {
  constructor(readonly event: EventDoc, cause: unknown) {
    super('the event store did not answer an event insert', { cause });
    this.name = 'EventInsertUnanswered';
  }
}

/** What retention needs of an event to remove it and what hangs off it: no body. */
export type EventRetentionView = Pick<EventDoc, '_id' | 'account_id' | 'tenant_id' | 'type' | 'idempotency_key' | 'endpoint_ids' | 'created_at' | 'fifo_places'> & { seq: number };
const RETENTION_VIEW = { account_id: 1, tenant_id: 1, type: 1, idempotency_key: 1, endpoint_ids: 1, created_at: 1, fifo_places: 1, seq: 1 } as const;

/** The `owner` of the events an API process accepts while its lease's hand-over batch is `batch`. */
export const ownerTag = (instanceId: string, batch: number): string => `${instanceId}#${batch}`;

/** `events`: every read is scoped to its account, except the delivery path's and crash recovery's. */
export class Events extends StoreCollection<StoredEventDoc>('events', [{ account_id: 1, seq: -1 }], [{ owner: 1 }], [{ tenant_key: 1, seq: -1 }]) {
  readonly ids = new EventIds(this.db);
  readonly sequences = new EventSequences(this.db);

  /** With `acceptance`, the event awaits hand-over from before its insert is sent, tagged with the lease's current batch. */
  async insertWithNextId(
    doc: NewEvent,
    bodyFor: (id: number) => string,
    acceptance?: { instanceId: string; awaiting: EventsAwaitingHandOver },
    /** Takes the event's places in FIFO queues once it has its id, before it is stored (fifo-turns.ts). */
    placesFor?: (id: number) => Promise<Record<string, TakenPlace>>,
  ): Promise<EventDoc> {
    const id = await this.ids.take();
    const batch = acceptance?.awaiting.enter(id);
    try {
      const seq = await this.sequences.next(doc.account_id);
      const places = placesFor ? Object.entries(await placesFor(id)) : undefined;
      const owner = acceptance ? ownerTag(acceptance.instanceId, batch as number) : (doc.owner ?? null);
      const full: EventDoc = {
        ...doc,
        owner,
        _id: id,
        body: bodyFor(id),
        ...(places && { fifo_places: Object.fromEntries(places.map(([e, p]) => [e, p.n])), fifo_heads: Object.fromEntries(places.map(([e, p]) => [e, p.head])) }),
      };
      // Any failure may have lost only the answer, the event stored.
      await this.col.insertOne(toStored(full, seq)).catch((err: unknown) => {
        throw new EventInsertUnanswered(full, err);
      });
      return full;
    } catch (err) {
      if (!(err instanceof EventInsertUnanswered)) acceptance?.awaiting.leave(id);
      throw err;
    }
  }

  /** The events a process accepted in one hand-over batch (ownerTag): one equality on a single-field index. */
  async owedBy(owner: string): Promise<EventDoc[]> {
    return (await this.col.find({ owner }).toArray()).map(fromStored);
  }

  /**
   * Takes one of the event's `max` notices of `kind` for `by`, or finds that `by` took one (a retried activity): one
   * conditional update. False when all are taken or the event is gone.
   */
  async claimNotice(eventId: number, kind: string, max: number, by: string): Promise<boolean> {
    const path = `notices.${kind.replace(/\W/g, '_')}`;
    const room = { [`${path}.${max - 1}`]: { $exists: false } };
    const taken = await this.col.updateOne({ _id: eventId, $or: [{ [path]: by }, room] }, { $addToSet: { [path]: by } });
    return taken.matchedCount === 1;
  }

  /** A `{_id}` point read with the owner in its filter (ownedBy), so another account's (or tenant's) event is simply not found. */
  async find(owner: RecordOwner, id: number): Promise<EventDoc | null> {
    if (!isEventId(id)) return null;
    const doc = await this.col.findOne({ _id: id, ...ownedBy(owner) });
    return doc && fromStored(doc);
  }

  /** Which of `ids` (a page of an endpoint's deliveries' events) are the owner's: one `{_id: {$in}}` query with its filter. */
  async ownedAmong(owner: RecordOwner, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const docs = await this.col.find({ _id: { $in: ids }, ...ownedBy(owner) }, { projection: { _id: 1 } }).toArray();
    return new Set(docs.map((d) => d._id));
  }

  /** Whether this very event is stored, after its insert got no answer (EventInsertUnanswered). */
  async holds(event: Pick<EventDoc, '_id' | 'body'>): Promise<boolean> {
    const doc = await this.col.findOne({ _id: event._id }, { projection: { body: 1 } });
    return doc?.body === event.body;
  }

  /** Without the account check: for the delivery path and crash recovery, which act for the platform. */
  async findUnscoped(id: number): Promise<EventDoc | null> {
    if (!isEventId(id)) return null;
    const doc = await this.col.findOne({ _id: id });
    return doc && fromStored(doc);
  }

  /** Newest first, until `want` (of `type`) are found or `examineAtMost` examined; `next`: null when done. With `tenantId`, that tenant's events only. */
  async list(
    accountId: string,
    options: { before?: EventListPosition; want: number; examineAtMost: number; type?: string; tenantId?: string },
  ): Promise<{ events: EventSummary[]; next: EventListPosition | null }> {
    // One string equality and a range on the field sorted by: the shape the embedded store walks an index for (mongo.ts).
    const owner = options.tenantId !== undefined ? { tenant_key: tenantKey(accountId, options.tenantId) } : { account_id: accountId };
    const events: EventSummary[] = [];
    let examined = 0;
    let below = options.before?.s ?? Number.MAX_SAFE_INTEGER;
    while (events.length < options.want && examined < options.examineAtMost) {
      const wanted = options.type ? TYPED_READ : options.want - events.length;
      const limit = Math.min(wanted, options.examineAtMost - examined);
      const docs: StoredSummary[] = await this.col.find({ ...owner, seq: { $lt: below } }, SUMMARY).sort({ seq: -1 }).limit(limit).toArray();
      for (const doc of docs) {
        if (events.length >= options.want) break;
        examined++;
        below = doc.seq;
        if (!options.type || doc.type === options.type) events.push(summary(doc, { s: doc.seq }));
      }
      if (docs.length < limit) return { events, next: null };
    }
    return { events, next: { s: below } };
  }

  async delete(id: number): Promise<void> {
    await this.col.deleteOne({ _id: id });
  }

  /** Retention: the account's `limit` oldest events, what it needs of each (no body). */
  async oldest(accountId: string, limit: number): Promise<EventRetentionView[]> {
    return this.col.find({ account_id: accountId, seq: { $gte: 0 } }, { projection: RETENTION_VIEW }).sort({ seq: 1 }).limit(limit).toArray();
  }

  /** Retention: one command of `{_id}` deletes. */
  async deleteAll(events: Array<Pick<EventRetentionView, '_id'>>): Promise<void> {
    if (events.length === 0) return;
    await this.col.bulkWrite(events.map((e) => ({ deleteOne: { filter: { _id: e._id } } })), { ordered: false });
  }
}

function toStored(doc: EventDoc, seq: number): StoredEventDoc {
  const { data: _data, _id, owner, ...rest } = doc;
  return { ...rest, _id, ...(owner ? { owner } : {}), ...(doc.tenant_id ? { tenant_key: tenantKey(doc.account_id, doc.tenant_id) } : {}), seq };
}

function fromStored(doc: StoredEventDoc): EventDoc {
  const { data } = parseExact(doc.body) as { data: Record<string, unknown> };
  return { ...readBack<StoredAsIs>(doc, STORED_AS_IS), _id: doc._id, data, owner: doc.owner ?? null };
}

function summary(doc: StoredSummary, position: EventListPosition): EventSummary {
  return { _id: doc._id, type: doc.type, endpoint_ids: doc.endpoint_ids, endpoint_urls: doc.endpoint_urls, created_at: doc.created_at, position };
}

/** The EventDoc fields read back as stored (the type demands each): no storage-only field leaks. */
type StoredAsIs = Omit<EventDoc, '_id' | 'data' | 'owner'>;
const STORED_AS_IS: Record<keyof StoredAsIs, true> = {
  account_id: true,
  tenant_id: true,
  type: true,
  body: true,
  timestamp: true,
  idempotency_key: true,
  endpoint_ids: true,
  endpoint_urls: true,
  created_at: true,
  fifo_places: true,
  fifo_heads: true,
  traceparent: true,
};

import { isEventId } from '../domain/webhooks/event-id';
import { EventIds } from './event-ids';
import { blockKey, blockOf, EventSequences, SEQ_BLOCK } from './event-sequences';
import type { EventsAwaitingHandOver } from './events-awaiting-hand-over';
import { readBack } from './read-back';
import { StoreCollection } from './store-collection';

/** `data` is kept only inside `body`, the exact delivered JSON: FerretDB cannot store keys with `.`, `$` or NUL, or nested arrays. */
interface StoredEventDoc extends Omit<EventDoc, 'data' | 'owner'> {
  owner?: string;
  /** The event's number in its account (event-sequences.ts); lists read `seq_block`. */
  seq: number;
  seq_block: string;
  /** Per notice kind, the claimers that took one of the event's capped notices (claimNotice). */
  notices?: Record<string, string[]>;
}

export interface EventDoc {
  /** Positive integer, unique across the platform (event-ids.ts). */
  _id: number;
  account_id: string;
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
  /** The W3C traceparent of the ingest that accepted it, when tracing was on: its deliveries join that trace. */
  traceparent?: string;
}

/** Where a list stopped, exclusive: below the account's number `s`. */
export type EventListPosition = { s: number };

/** What a list needs to decide a page: no body (a page reads only the bodies it returns, by id). */
export type EventSummary = Pick<EventDoc, '_id' | 'type' | 'endpoint_ids' | 'endpoint_urls' | 'created_at'> & { position: EventListPosition };

type StoredSummary = Omit<StoredEventDoc, 'body'>;
const SUMMARY = { projection: { body: 0 } } as const;

/** Blocks read at once while a list walks down. */
const BLOCKS_AT_ONCE = 4;
/** Empty blocks a list walks through beyond what it examines (numbers of events deleted unacknowledged) before it hands back a cursor. */
const EMPTY_BLOCKS_ALLOWED = 8;

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
export type EventRetentionView = Pick<EventDoc, '_id' | 'account_id' | 'type' | 'idempotency_key' | 'endpoint_ids' | 'created_at' | 'fifo_places'> & { seq: number };
const RETENTION_VIEW = { account_id: 1, type: 1, idempotency_key: 1, endpoint_ids: 1, created_at: 1, fifo_places: 1, seq: 1 } as const;

/** The `owner` of the events an API process accepts while its lease's hand-over batch is `batch`. */
export const ownerTag = (instanceId: string, batch: number): string => `${instanceId}#${batch}`;

/**
 * `events`: every read is scoped to its account, except the delivery path's and crash recovery's. Single-field indexes:
 * the embedded store uses a one-field index for an equality, where a compound one may lose to `{account_id}`.
 */
export class Events extends StoreCollection<StoredEventDoc>('events', [{ seq_block: 1 }], [{ owner: 1 }]) {
  readonly ids = new EventIds(this.db);
  readonly sequences = new EventSequences(this.db);

  /** With `acceptance`, the event awaits hand-over from before its insert is sent, tagged with the lease's current batch. */
  async insertWithNextId(
    doc: NewEvent,
    bodyFor: (id: number) => string,
    acceptance?: { instanceId: string; awaiting: EventsAwaitingHandOver },
    /** Takes the event's places in FIFO queues once it has its id, before it is stored (fifo-turns.ts). */
    placesFor?: (id: number) => Promise<Record<string, number>>,
  ): Promise<EventDoc> {
    const id = await this.ids.take();
    const batch = acceptance?.awaiting.enter(id);
    try {
      const seq = await this.sequences.next(doc.account_id);
      const places = placesFor ? await placesFor(id) : undefined;
      const owner = acceptance ? ownerTag(acceptance.instanceId, batch as number) : (doc.owner ?? null);
      const full: EventDoc = { ...doc, owner, _id: id, body: bodyFor(id), ...(places ? { fifo_places: places } : {}) };
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

  /** A `{_id}` point read; the owner is checked here, so another account's event is simply not found. */
  async find(accountId: string, id: number): Promise<EventDoc | null> {
    const doc = await this.findUnscoped(id);
    return doc && doc.account_id === accountId ? doc : null;
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

  /** Newest first, until `want` (of `type`) are found or `examineAtMost` examined; `next`: null when done. */
  async list(
    accountId: string,
    options: { before?: EventListPosition; want: number; examineAtMost: number; type?: string },
  ): Promise<{ events: EventSummary[]; next: EventListPosition | null }> {
    const events: EventSummary[] = [];
    let examined = 0;
    const done = () => events.length >= options.want || examined >= options.examineAtMost;
    const bounds = await this.sequences.bounds(accountId);
    const { floor } = bounds;
    const head = options.before ? options.before.s - 1 : bounds.head;
    let upTo = head + 1;
    const blocksAllowed = Math.ceil(options.examineAtMost / SEQ_BLOCK) + 1 + EMPTY_BLOCKS_ALLOWED;
    let block = blockOf(upTo - 1);
    for (let blocksRead = 0; block > floor && block >= 0; ) {
      // upTo: below the last event examined, or the last block read.
      if (blocksRead >= blocksAllowed) return { events, next: { s: upTo } };
      const needed = Math.ceil(Math.min(options.want - events.length, options.examineAtMost - examined) / SEQ_BLOCK) + 1;
      const batch = Array.from({ length: Math.min(needed, BLOCKS_AT_ONCE, block - floor) }, (_, i) => block - i);
      const docs = await Promise.all(batch.map((b) => this.readBlock(accountId, b)));
      blocksRead += batch.length;
      for (const doc of docs.flat().filter((d) => d.seq < upTo).sort((a, b) => b.seq - a.seq)) {
        if (done()) break;
        examined++;
        upTo = doc.seq;
        if (!options.type || doc.type === options.type) events.push(summary(doc, { s: doc.seq }));
      }
      if (done()) return { events, next: { s: upTo } };
      block -= batch.length;
      upTo = Math.min(upTo, (block + 1) * SEQ_BLOCK);
    }
    return { events, next: null };
  }

  /** One block of an account's events: one equality on a single-field index. */
  private async readBlock(accountId: string, block: number): Promise<StoredSummary[]> {
    const docs: StoredSummary[] = await this.col.find({ seq_block: blockKey(accountId, block) }, SUMMARY).toArray();
    return docs.filter((d) => d.account_id === accountId);
  }

  async delete(id: number): Promise<void> {
    await this.col.deleteOne({ _id: id });
  }

  /** Retention: one block of the account's events, what it needs of each (no body). */
  async retentionBlock(accountId: string, block: number): Promise<EventRetentionView[]> {
    const docs = await this.col.find({ seq_block: blockKey(accountId, block) }, { projection: RETENTION_VIEW }).toArray();
    return docs.filter((d) => d.account_id === accountId);
  }

  /** Retention: one command of `{_id}` deletes. */
  async deleteAll(events: Array<Pick<EventRetentionView, '_id'>>): Promise<void> {
    if (events.length === 0) return;
    await this.col.bulkWrite(events.map((e) => ({ deleteOne: { filter: { _id: e._id } } })), { ordered: false });
  }
}

function toStored(doc: EventDoc, seq: number): StoredEventDoc {
  const { data: _data, _id, owner, ...rest } = doc;
  return { ...rest, _id, ...(owner ? { owner } : {}), seq, seq_block: blockKey(doc.account_id, blockOf(seq)) };
}

function fromStored(doc: StoredEventDoc): EventDoc {
  const { data } = JSON.parse(doc.body) as { data: Record<string, unknown> };
  return { ...readBack<StoredAsIs>(doc, STORED_AS_IS), _id: doc._id, data, owner: doc.owner ?? null };
}

function summary(doc: StoredSummary, position: EventListPosition): EventSummary {
  return { _id: doc._id, type: doc.type, endpoint_ids: doc.endpoint_ids, endpoint_urls: doc.endpoint_urls, created_at: doc.created_at, position };
}

/** The EventDoc fields read back as stored (the type demands each): no storage-only field leaks. */
type StoredAsIs = Omit<EventDoc, '_id' | 'data' | 'owner'>;
const STORED_AS_IS: Record<keyof StoredAsIs, true> = {
  account_id: true,
  type: true,
  body: true,
  timestamp: true,
  idempotency_key: true,
  endpoint_ids: true,
  endpoint_urls: true,
  created_at: true,
  fifo_places: true,
  traceparent: true,
};

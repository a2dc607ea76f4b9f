import type { Db } from 'mongodb';
import { isEventId } from '../domain/webhooks/event-id';
import { EventIds, storedEventId as storedId } from './event-ids';
import { blockKey, blockOf, EventSequences, HEAD_TRUST_MS, SEQ_BLOCK, seqKey } from './event-sequences';
import type { EventsAwaitingHandOver } from './events-awaiting-hand-over';
import { isDuplicateKeyError } from './mongo';
import { readBack } from './read-back';
import { StoreCollection } from './store-collection';
import { RememberedHeads } from './store-primitives';

/** `data` is kept only inside `body`, the exact delivered JSON: FerretDB cannot store keys with `.`, `$` or NUL, or nested arrays. */
interface StoredEventDoc extends Omit<EventDoc, '_id' | 'data' | 'owner'> {
  _id: string;
  owner?: string;
  /** The event's number in its account (event-sequences.ts): `seq_key` claims it, lists read `seq_block`. */
  seq: number;
  seq_key: string;
  seq_block: string;
}

export interface EventDoc {
  /** Positive integer, unique across the platform; claimed by a race-free insert. */
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
  /** The API process (instance lease id) that accepted the event and owes its dispatch. */
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

/** Ids read at once above a lost claim: the winner is usually another API process a few inserts ahead. */
const NEAR_READS = 8;
/** The key of the platform's one id sequence (in `hint` and `found`). */
const IDS = '';

/**
 * `events`: every read is scoped to its account, except the delivery path's and crash recovery's. Single-field indexes:
 * the embedded store uses a one-field index for an equality, where a compound one may lose to `{account_id}`.
 */
export class Events extends StoreCollection<StoredEventDoc>('events', [{ seq_key: 1 }, { unique: true }], [{ seq_block: 1 }]) {
  readonly ids = new EventIds(this.db);
  /** The last id this process tried. */
  private readonly hint: RememberedHeads<{ n: number }>;
  /** The highest head a search after a lost claim found; inserts that lost together share one search. */
  private readonly found = new RememberedHeads<{ n: number }>(1);
  private readonly sequences: EventSequences<StoredSummary>;

  constructor(db: Db, now: () => number = Date.now) {
    super(db);
    this.hint = new RememberedHeads(1, { ms: HEAD_TRUST_MS, now });
    this.sequences = new EventSequences(db, (accountId, block) => this.readBlock(accountId, block), now);
  }

  /** The id is claimed first (a small document), so the event is inserted once; with `acceptance`, the id awaits hand-over. */
  async insertWithNextId(
    doc: NewEvent,
    bodyFor: (id: number) => string,
    acceptance?: { instanceId: string; awaiting: EventsAwaitingHandOver },
    /** Takes the event's places in FIFO queues once its id is won, before it is stored (fifo-turns.ts). */
    placesFor?: (id: number) => Promise<Record<string, number>>,
  ): Promise<EventDoc> {
    for (;;) {
      const hint = await this.trustedHint();
      // Synchronous after the await: concurrent inserters of this process never pick the same id.
      const id = this.hint.advance(IDS, hint);
      acceptance?.awaiting.enter(id);
      try {
        if (await this.ids.claim(id, doc.created_at)) {
          const places = placesFor ? await placesFor(id) : undefined;
          const full: EventDoc = { ...doc, owner: acceptance?.instanceId ?? doc.owner ?? null, _id: id, body: bodyFor(id), ...(places ? { fifo_places: places } : {}) };
          await this.insertNumbered(full);
          return full;
        }
      } catch (err) {
        if (!(err instanceof EventInsertUnanswered)) acceptance?.awaiting.leave(id);
        throw err;
      }
      acceptance?.awaiting.leave(id);
      // Searched unless one found a head at or past this id (each alone: 19 lookups/event at 2 x C). One under
      // way is joined: should it end below this id, the next try is still past it (the hint is).
      const found = this.found.get(IDS);
      this.hint.raise(IDS, found && found.n >= id ? found : await this.found.learn(IDS, async () => ({ n: await this.ids.headFrom(id, NEAR_READS) })));
    }
  }

  /** Learned again past HEAD_TRUST_MS: retention removes old ids' claims, so an old hint could reuse an id. */
  async highestIdTried(): Promise<number> {
    return (this.hint.later(IDS, await this.trustedHint()) as { n: number }).n;
  }

  private trustedHint(): Promise<{ n: number }> {
    return this.hint.trusted(IDS, async (known) => ({ n: await this.ids.head(known?.n ?? 0) }));
  }

  /** Also claims the account's next number: the id's claim was won, so a duplicate key is the number's. */
  private async insertNumbered(event: EventDoc): Promise<void> {
    for (let lost = 0; ; lost++) {
      const seq = await this.sequences.next(event.account_id);
      try {
        await this.col.insertOne(toStored(event, seq));
      } catch (err) {
        // Any other failure may have lost only the answer, the event stored.
        if (!isDuplicateKeyError(err)) throw new EventInsertUnanswered(event, err);
        // Most often another process took just this number: the next is tried at once, a second loss learns the head.
        if (lost > 0) await this.sequences.taken(event.account_id, seq);
        continue;
      }
      await this.sequences.landed(event.account_id, seq);
      return;
    }
  }

  /** A `{_id}` point read; the owner is checked here, so another account's event is simply not found. */
  async find(accountId: string, id: number): Promise<EventDoc | null> {
    const doc = await this.findUnscoped(id);
    return doc && doc.account_id === accountId ? doc : null;
  }

  /** Whether this very event is stored, after its insert got no answer (EventInsertUnanswered). */
  async holds(event: Pick<EventDoc, '_id' | 'body'>): Promise<boolean> {
    const doc = await this.col.findOne({ _id: storedId(event._id) }, { projection: { body: 1 } });
    return doc?.body === event.body;
  }

  /** Without the account check: for the delivery path and crash recovery, which act for the platform. */
  async findUnscoped(id: number): Promise<EventDoc | null> {
    if (!isEventId(id)) return null;
    const doc = await this.col.findOne({ _id: storedId(id) });
    if (!doc) return null;
    const { data } = JSON.parse(doc.body) as { data: Record<string, unknown> };
    return { ...readBack<StoredAsIs>(doc, STORED_AS_IS), _id: Number(doc._id), data, owner: doc.owner ?? null };
  }

  /** Newest first, until `want` (of `type`) are found or `examineAtMost` examined; `next`: null when done. */
  async list(
    accountId: string,
    options: { before?: EventListPosition; want: number; examineAtMost: number; type?: string },
  ): Promise<{ events: EventSummary[]; next: EventListPosition | null }> {
    const events: EventSummary[] = [];
    let examined = 0;
    const done = () => events.length >= options.want || examined >= options.examineAtMost;
    const { head, floor, read } = options.before
      ? { head: options.before.s - 1, floor: await this.sequences.floor(accountId), read: new Map<number, StoredSummary[]>() }
      : await this.sequences.bounds(accountId);
    let upTo = head + 1;
    const blocksAllowed = Math.ceil(options.examineAtMost / SEQ_BLOCK) + 1 + EMPTY_BLOCKS_ALLOWED;
    let block = blockOf(upTo - 1);
    for (let blocksRead = 0; block > floor && block >= 0; ) {
      // upTo: below the last event examined, or the last block read.
      if (blocksRead >= blocksAllowed) return { events, next: { s: upTo } };
      const needed = Math.ceil(Math.min(options.want - events.length, options.examineAtMost - examined) / SEQ_BLOCK) + 1;
      const batch = Array.from({ length: Math.min(needed, BLOCKS_AT_ONCE, block - floor) }, (_, i) => block - i);
      const docs = await Promise.all(batch.map((b) => read.get(b) ?? this.readBlock(accountId, b)));
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
    await this.col.deleteOne({ _id: storedId(id) });
  }

  /** Retention: an `{_id}` point read of what it needs (no body). */
  async retentionView(id: number): Promise<EventRetentionView | null> {
    const doc = await this.col.findOne({ _id: storedId(id) }, { projection: RETENTION_VIEW });
    return doc && { ...doc, _id: id };
  }

  /** Retention: one command of `{_id}` deletes; then each account's list stops reading below what was removed. */
  async deleteAll(events: Array<Pick<EventRetentionView, '_id' | 'account_id' | 'seq'>>): Promise<void> {
    if (events.length === 0) return;
    await this.col.bulkWrite(events.map((e) => ({ deleteOne: { filter: { _id: storedId(e._id) } } })), { ordered: false });
    const highest = new Map<string, number>();
    for (const e of events) highest.set(e.account_id, Math.max(highest.get(e.account_id) ?? 0, e.seq));
    for (const [accountId, seq] of highest) await this.sequences.removedThrough(accountId, seq);
  }
}

function toStored(doc: EventDoc, seq: number): StoredEventDoc {
  const { data: _data, _id, owner, ...rest } = doc;
  return { ...rest, _id: storedId(_id), ...(owner ? { owner } : {}), seq, seq_key: seqKey(doc.account_id, seq), seq_block: blockKey(doc.account_id, blockOf(seq)) };
}

function summary(doc: StoredSummary, position: EventListPosition): EventSummary {
  return { _id: Number(doc._id), type: doc.type, endpoint_ids: doc.endpoint_ids, endpoint_urls: doc.endpoint_urls, created_at: doc.created_at, position };
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

import { StoreCollection } from './store-collection';
import { claimOnce, findHeadPastGaps, type DatedClaim } from './store-primitives';

const ID_DIGITS = 16;
/** An event id as stored in `_id`: 16-digit zero-padded, so string order is numeric order (FerretDB indexes only string ids). */
export const storedEventId = (id: number): string => String(id).padStart(ID_DIGITS, '0');

/**
 * `floor`: every id up to n was handed out, and the claims from it to the head all exist. `purged`:
 * retention removed every event up to n. Each value is its own insert, the mark the highest: both grow.
 */
interface MarkDoc {
  _id: string;
  kind: 'floor' | 'purged';
  n: number;
}

/**
 * Ids are claims' unique inserts, one per event id ever handed out: small, so probing the sequence never reads an event body.
 * Retention deletes claims only below the floor mark, so ids only grow.
 */
export class EventIds extends StoreCollection<DatedClaim>('event_ids') {
  private readonly marks = this.db.collection<MarkDoc>('event_id_marks');

  /** `at`: the event's `created_at`, what retention asks of an id whose event is gone. */
  claim(id: number, at: Date): Promise<boolean> {
    return claimOnce(this.col, { _id: storedEventId(id), at });
  }

  /** The claim's date, or null where there is none (never claimed, or purged). */
  async claimedAt(id: number): Promise<Date | null> {
    return (await this.col.findOne({ _id: storedEventId(id) }))?.at ?? null;
  }

  /** The highest id handed out: by `_id` probes of claims from the floor mark (or from `known`, an id handed out above it). */
  async head(known = 0): Promise<number> {
    return this.headFrom(Math.max(known, await this.mark('floor')));
  }

  /** From `known`, reading the `near` ids above it at once first (find-head.ts). */
  headFrom(known: number, near = 0): Promise<number> {
    return findHeadPastGaps((n) => this.col.findOne({ _id: storedEventId(n) }, { projection: { _id: 1 } }), known, near);
  }

  /** Retention removed every event up to `id`: marks it, then removes the claims `ids` not yet removed. */
  async retire(id: number, ids: number[]): Promise<void> {
    for (const kind of ['purged', 'floor'] as const) await claimOnce(this.marks, { _id: `${kind}:${storedEventId(id)}`, kind, n: id });
    if (ids.length > 0) await this.col.bulkWrite(ids.map((n) => ({ deleteOne: { filter: { _id: storedEventId(n) } } })), { ordered: false });
    // Only the highest mark of each kind is ever read again.
    const marks = await this.marks.find({}).toArray();
    const superseded = marks.filter((m) => marks.some((other) => other.kind === m.kind && other.n > m.n));
    if (superseded.length > 0) await this.marks.bulkWrite(superseded.map((m) => ({ deleteOne: { filter: { _id: m._id } } })), { ordered: false });
  }

  /** The highest mark of `kind` (0: none). The collection holds a handful at most (superseded ones are dropped), so reading it whole is cheap. */
  async mark(kind: MarkDoc['kind']): Promise<number> {
    const marks = await this.marks.find({}).toArray();
    return Math.max(0, ...marks.filter((m) => m.kind === kind).map((m) => m.n));
  }
}

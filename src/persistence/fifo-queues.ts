import { Collection, Db } from 'mongodb';
import type { QueuePlace, TakenPlace } from '../domain/webhooks/fifo-order';

/**
 * `tail`: the last place taken; `head`: the place whose turn it is (every place below it has ended or was passed over);
 * `woken_through`: a switch to unordered has woken every place up to it.
 */
export interface QueueDoc {
  _id: string;
  tail: number;
  head: number;
  woken_through?: number;
}

/** Place n of an endpoint (`<endpoint>#<n>`): the event holding it. */
interface PlaceDoc {
  _id: string;
  event_id: number;
  taken_at: Date;
}

const placeId = (endpointId: string, n: number) => `${endpointId}#${n}`;

/** Each FIFO endpoint's queue (docs/fifo-endpoints.md): a counter of places, a head pointer, and which event holds each place. */
export class FifoQueues {
  private readonly queues: Collection<QueueDoc>;
  private readonly places: Collection<PlaceDoc>;

  constructor(db: Db) {
    this.queues = db.collection<QueueDoc>('fifo_queues');
    this.places = db.collection<PlaceDoc>('fifo_places');
  }

  /**
   * The endpoint's next place (1, 2, ...) and the head as it was taken, then its record (`at` read after): one `$inc`, so
   * concurrent takes in any processes get distinct, gap-free places.
   */
  async take(endpointId: string, eventId: number, at: () => Date): Promise<TakenPlace> {
    const { tail, head } = (await this.queues.findOneAndUpdate({ _id: endpointId }, { $inc: { tail: 1 }, $setOnInsert: { head: 1 } }, { upsert: true, returnDocument: 'after' })) as QueueDoc;
    await this.hold(endpointId, tail, eventId, at());
    return { n: tail, head };
  }

  /** Records which event holds place n. */
  async hold(endpointId: string, n: number, eventId: number, at: Date): Promise<void> {
    await this.places.insertOne({ _id: placeId(endpointId, n), event_id: eventId, taken_at: at });
  }

  queue(endpointId: string): Promise<QueueDoc | null> {
    return this.queues.findOne({ _id: endpointId });
  }

  /** Place n, or null if its holder is not recorded (not yet, never, or gone with its event). */
  async place(endpointId: string, n: number): Promise<QueuePlace | null> {
    const doc = await this.places.findOne({ _id: placeId(endpointId, n) });
    return doc && { n, eventId: doc.event_id, takenAt: doc.taken_at };
  }

  /** Moves the head from place n to the next if it is at n: the queue after, or null when it was not (another moved it). */
  pass(endpointId: string, n: number): Promise<QueueDoc | null> {
    return this.queues.findOneAndUpdate({ _id: endpointId, head: n }, { $set: { head: n + 1 } }, { returnDocument: 'after' });
  }

  /** Moves the head past place n unless it is past already: the queue after, or null when it was. */
  passThrough(endpointId: string, n: number): Promise<QueueDoc | null> {
    return this.queues.findOneAndUpdate({ _id: endpointId, head: { $lte: n } }, { $set: { head: n + 1 } }, { returnDocument: 'after' });
  }

  /** Raises `woken_through` to `through`: answers what it was before, so concurrent switches wake disjoint places. */
  async markWoken(endpointId: string, through: number): Promise<number> {
    const before = await this.queues.findOneAndUpdate({ _id: endpointId }, { $max: { woken_through: through } }, { returnDocument: 'before' });
    return before?.woken_through ?? 0;
  }

  /** The records of these places (their events are gone). */
  async forget(places: Array<{ endpointId: string; n: number }>): Promise<void> {
    if (places.length === 0) return;
    await this.places.bulkWrite(places.map((p) => ({ deleteOne: { filter: { _id: placeId(p.endpointId, p.n) } } })), { ordered: false });
  }
}

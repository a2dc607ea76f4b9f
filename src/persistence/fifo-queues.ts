import { Collection, Db } from 'mongodb';
import type { QueuePlace } from '../domain/webhooks/fifo-order';
import { AppendLog, claimOnce, memberId, raiseHint, RememberedHeads } from './store-primitives';

interface PlaceDoc {
  _id: string;
  event_id: number;
  taken_at: Date;
}

interface LeftDoc {
  _id: string;
  at: Date;
}

/** `left_through`: every place up to it has been left (a lower bound, raised with `$max`). */
interface QueueMarksDoc {
  _id: string;
  left_through?: number;
}

const PLACES_REMEMBERED = 10_000;

/**
 * Each FIFO endpoint's queue, with no read-modify-write: place n is the claim of `<endpoint>#n`
 * (an append log, so concurrent ingests in any processes get distinct, contiguous places), and
 * leaving it is the claim of the same id in `fifo_left`. The head is the lowest place not left,
 * found by `_id` lookups upward from a hint: index searches on both stores.
 */
export class FifoQueues {
  private readonly places: AppendLog<{ eventId: number; takenAt: Date }, PlaceDoc>;
  private readonly left: Collection<LeftDoc>;
  private readonly marks: Collection<QueueMarksDoc>;
  /** Per endpoint, the highest place this process knows every place up to has been left. */
  private readonly leftThrough = new RememberedHeads<{ n: number }>(PLACES_REMEMBERED);

  constructor(db: Db) {
    this.places = new AppendLog(db.collection<PlaceDoc>('fifo_places'), {
      toDoc: (_scope, _n, value) => ({ event_id: value.eventId, taken_at: value.takenAt }),
      fromDoc: (doc) => ({ eventId: doc.event_id, takenAt: doc.taken_at }),
    });
    this.left = db.collection<LeftDoc>('fifo_left');
    this.marks = db.collection<QueueMarksDoc>('fifo_marks');
  }

  async ensureIndexes(): Promise<void> {
    // `_id` lookups only.
  }

  /** The next place in the endpoint's queue, for the event. */
  take(endpointId: string, eventId: number, at: Date): Promise<number> {
    return this.places.push(endpointId, { eventId, takenAt: at });
  }

  /** Leaves place n (idempotent). */
  async leave(endpointId: string, n: number, at: Date): Promise<void> {
    await claimOnce(this.left, { _id: memberId(endpointId, n), at });
  }

  /** Whether place n has been left. */
  async hasLeft(endpointId: string, n: number): Promise<boolean> {
    return (await this.left.findOne({ _id: memberId(endpointId, n) }, { projection: { _id: 1 } })) !== null;
  }

  /**
   * The lowest place not left and not passed over (`passOver` decides for each candidate, which
   * is then left), or null when the queue is empty. Raises the hint past the places found left.
   */
  async head(endpointId: string, passOver: (place: QueuePlace) => Promise<boolean>, at: Date): Promise<QueuePlace | null> {
    // The mark as well as what this process knows: another process may have left many places since.
    const marked = (await this.marks.findOne({ _id: endpointId }))?.left_through ?? 0;
    const from = Math.max(this.leftThrough.get(endpointId)?.n ?? 0, marked);
    let n = from + 1;
    let head: QueuePlace | null = null;
    for (;; n++) {
      if (await this.hasLeft(endpointId, n)) continue;
      const entry = await this.places.entry(endpointId, n);
      if (!entry) break;
      const place = { n, eventId: entry.value.eventId, takenAt: entry.value.takenAt };
      if (!(await passOver(place))) {
        head = place;
        break;
      }
      await this.leave(endpointId, n, at);
    }
    if (n - 1 > from) {
      this.leftThrough.raise(endpointId, { n: n - 1 });
      await raiseHint(this.marks, endpointId, { $max: { left_through: n - 1 } });
    }
    return head;
  }

  /** The newest place taken (0: none). */
  async newest(endpointId: string): Promise<number> {
    return (await this.places.head(endpointId))?.n ?? 0;
  }
}

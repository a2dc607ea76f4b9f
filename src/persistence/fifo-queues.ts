import { Collection, Db } from 'mongodb';
import type { QueuePlace } from '../domain/webhooks/fifo-order';
import { FIFO_PRUNE_BATCH, FIFO_PRUNE_MAX_BATCHES, FIFO_PRUNE_MIN_ADVANCE, isAboveEveryFloor, nextDeletion, raisedFloor } from '../domain/webhooks/fifo-pruning';
import { AppendLog, claimOnce, memberId, raiseHint, RememberedHeads, type DatedClaim } from './store-primitives';

interface PlaceDoc {
  _id: string;
  event_id: number;
  taken_at: Date;
}

/**
 * `left_through`: every place up to it has been left; on `<endpoint>/deleted`, `deleted_through`:
 * every place and leave up to it has been deleted; on `<endpoint>/woken`, `woken_through`: a switch to
 * unordered has woken every place up to it (all lower bounds, raised with `$max`).
 */
interface QueueMarksDoc {
  _id: string;
  left_through?: number;
  deleted_through?: number;
  woken_through?: number;
}

/** Entry k of an endpoint's floors: places and leaves up to `through` may be deleted. */
interface FloorDoc {
  _id: string;
  through: number;
  at: Date;
}

const PLACES_REMEMBERED = 10_000;

/** Each FIFO endpoint's queue, by claims only (docs/fifo-endpoints.md); the floor is a log: a lost `$max` would lower it. */
export class FifoQueues {
  private readonly places: AppendLog<{ eventId: number; takenAt: Date }, PlaceDoc>;
  private readonly left: Collection<DatedClaim>;
  private readonly marks: Collection<QueueMarksDoc>;
  private readonly floors: AppendLog<{ through: number; at: Date }, FloorDoc>;
  /** Per endpoint, the highest place this process knows every place up to has been left. */
  private readonly leftThrough = new RememberedHeads<{ n: number }>(PLACES_REMEMBERED);
  /** Per endpoint, the last place this process took (above every floor) and when. */
  private readonly taken = new RememberedHeads<{ n: number; at: Date }>(PLACES_REMEMBERED);

  constructor(db: Db) {
    this.places = new AppendLog(db.collection<PlaceDoc>('fifo_places'), {
      toDoc: (_scope, _n, value) => ({ event_id: value.eventId, taken_at: value.takenAt }),
      fromDoc: (doc) => ({ eventId: doc.event_id, takenAt: doc.taken_at }),
    });
    this.left = db.collection<DatedClaim>('fifo_left');
    this.marks = db.collection<QueueMarksDoc>('fifo_marks');
    this.floors = new AppendLog(db.collection<FloorDoc>('fifo_floors'), {
      toDoc: (_scope, _n, value) => ({ through: value.through, at: value.at }),
      fromDoc: (doc) => ({ through: doc.through, at: doc.at }),
    });
  }

  async take(endpointId: string, eventId: number, at: Date): Promise<number> {
    const mine = this.taken.get(endpointId);
    // The floor this process saw last: a cold one may fill a deleted number once, and drop it.
    let floor = this.floors.seen(endpointId)?.value.through ?? 0;
    for (;;) {
      const n = await this.places.push(endpointId, { eventId, takenAt: at }, floor);
      // Above a place this process took lately, n is new. Else the push may have started from a head
      // or floor a prune has since passed (none known, or one known long ago), so the floor is read.
      const fresh = mine !== null && n > mine.n && isAboveEveryFloor(mine.at, at);
      if (!fresh) floor = await this.floor(endpointId);
      if (fresh || n > floor) {
        this.taken.raise(endpointId, { n, at });
        return n;
      }
      // A prune raised the floor past n after this push read it, and deleted the place it filled.
      await this.places.remove(endpointId, [n]);
    }
  }

  /** Idempotent; a leave at or below the floor (a repeat after a prune) is deleted again. A recent `takenAt`: above every floor. */
  async leave(endpointId: string, n: number, at: Date, takenAt?: Date): Promise<void> {
    await claimOnce(this.left, { _id: memberId(endpointId, n), at });
    const seen = this.floors.seen(endpointId)?.value.through ?? 0;
    if (n > seen && takenAt && isAboveEveryFloor(takenAt, at)) return;
    if (n <= seen || n <= (await this.floor(endpointId))) await this.left.deleteOne({ _id: memberId(endpointId, n) });
  }

  async hasLeft(endpointId: string, n: number): Promise<boolean> {
    return (await this.left.findOne({ _id: memberId(endpointId, n) }, { projection: { _id: 1 } })) !== null;
  }

  /** The lowest place not left and not passed over (`passOver` decides; those passed over are left); null: none. */
  async head(endpointId: string, passOver: (place: QueuePlace) => Promise<boolean>, at: Date): Promise<QueuePlace | null> {
    // The mark as well as what this process knows: another process may have left many places since.
    const marked = await this.leftMark(endpointId);
    const from = Math.max(this.leftThrough.get(endpointId)?.n ?? 0, marked);
    let n = from + 1;
    let head: QueuePlace | null = null;
    for (;; n++) {
      if (await this.hasLeft(endpointId, n)) continue;
      const entry = await this.places.entry(endpointId, n);
      if (!entry) {
        // Not the end if a prune deleted it (meanwhile, or the mark lost a raise): all up to the floor was left.
        const floor = await this.floor(endpointId);
        if (n > floor) break;
        n = floor;
        continue;
      }
      const place = { n, eventId: entry.value.eventId, takenAt: entry.value.takenAt };
      if (!(await passOver(place))) {
        head = place;
        break;
      }
      await this.leave(endpointId, n, at, place.takenAt);
    }
    if (n - 1 > from) {
      this.leftThrough.raise(endpointId, { n: n - 1 });
      await raiseHint(this.marks, endpointId, { $max: { left_through: n - 1 } });
    }
    return head;
  }

  /** The places after place n, the lowest first, up to `max`: one `_id` lookup each. */
  async placesAfter(endpointId: string, n: number, max: number): Promise<QueuePlace[]> {
    return (await this.places.readSince(endpointId, n, max)).map((e) => ({ n: e.n, eventId: e.value.eventId, takenAt: e.value.takenAt }));
  }

  /** The highest place a switch to unordered has woken (0: none); a raise lost at once on the embedded store wakes some again. */
  async wokenThrough(endpointId: string): Promise<number> {
    return (await this.marks.findOne({ _id: `${endpointId}/woken` }))?.woken_through ?? 0;
  }

  async markWoken(endpointId: string, through: number): Promise<void> {
    await raiseHint(this.marks, `${endpointId}/woken`, { $max: { woken_through: through } });
  }

  /** The newest place taken, searched upward from the head (a place known to be kept). */
  async newest(endpointId: string, head: QueuePlace): Promise<number> {
    return (await this.places.head(endpointId, { n: head.n, value: { eventId: head.eventId, takenAt: head.takenAt } }))?.n ?? head.n;
  }

  /** Raises the floor (by `minAdvance` at least, never past places left), then deletes up to it, a bounded batch per call; returns it. */
  async prune(endpointId: string, through: number, at: Date, minAdvance = FIFO_PRUNE_MIN_ADVANCE): Promise<number> {
    const leftThrough = await this.leftMark(endpointId);
    const { entry } = await this.floors.append(endpointId, (head) => {
      const raised = raisedFloor(head?.value.through ?? 0, leftThrough, through, minAdvance);
      return raised === null ? null : { through: raised, at };
    });
    const floor = entry?.value.through ?? 0;
    const deletedId = `${endpointId}/deleted`;
    let deleted = (await this.marks.findOne({ _id: deletedId }))?.deleted_through ?? 0;
    for (let batch = 0; batch < FIFO_PRUNE_MAX_BATCHES; batch++) {
      const next = nextDeletion(deleted, floor, FIFO_PRUNE_BATCH);
      if (!next) break;
      const ns = Array.from({ length: next.through - next.from + 1 }, (_, i) => next.from + i);
      // Places first: a head search meanwhile finds a place left, or none (then it reads the floor), never one not left.
      await this.places.remove(endpointId, ns);
      await this.left.deleteMany({ _id: { $in: ns.map((n) => memberId(endpointId, n)) } });
      await raiseHint(this.marks, deletedId, { $max: { deleted_through: next.through } });
      deleted = next.through;
    }
    return floor;
  }

  /** The endpoint's floor, exact: one lookup past the floor this process saw last. */
  private async floor(endpointId: string): Promise<number> {
    return (await this.floors.head(endpointId))?.value.through ?? 0;
  }

  private async leftMark(endpointId: string): Promise<number> {
    return (await this.marks.findOne({ _id: endpointId }))?.left_through ?? 0;
  }
}

import { randomUUID } from 'node:crypto';
import { unlessIdTaken } from './mongo';
import { StoreCollection } from './store-collection';

interface InFlightLease {
  id: string;
  /** Past it the lease no longer counts: its worker was killed before releasing it. */
  expires_at: Date;
}

interface InFlightDoc {
  /** The endpoint's id. */
  _id: string;
  /** Each POST in flight, latest expiry first (every push sorts them), at most the cap: a lapsed lease is dropped when its place is taken. Absent: none yet. */
  leases?: InFlightLease[];
}

/**
 * An endpoint's POSTs in flight across workers: a lease each in the endpoint's one document. With the leases in
 * descending expiry, fewer than `cap` are alive exactly when element `cap - 1` is absent or lapsed, so one
 * conditional push takes a place, and its `$slice` drops the lapsed leases beyond the cap.
 */
export class EndpointInFlightLeases extends StoreCollection<InFlightDoc>('endpoint_in_flight_leases') {
  /** A lease until `expiresAt` (later than `now`) if fewer than `cap` of the endpoint's are alive at `now`: its id, else null. */
  async acquire(endpointId: string, cap: number, now: Date, expiresAt: Date): Promise<string | null> {
    const lease = { id: randomUUID(), expires_at: expiresAt };
    const last = `leases.${cap - 1}`;
    const room = { _id: endpointId, $or: [{ [last]: { $exists: false } }, { [`${last}.expires_at`]: { $lte: now } }] };
    // No room: the upsert's insert meets the `_id`. On MongoDB so may the endpoint's first lease when another first one inserted
    // the document a moment before: refused, it waits as at a full endpoint, and a refusal stays one command.
    const pushed = await unlessIdTaken(() => this.col.updateOne(room, { $push: { leases: { $each: [lease], $sort: { expires_at: -1 }, $slice: cap } } }, { upsert: true }));
    return pushed === null ? null : lease.id;
  }

  async release(endpointId: string, lease: string): Promise<void> {
    await this.col.updateOne({ _id: endpointId }, { $pull: { leases: { id: lease } } });
  }
}

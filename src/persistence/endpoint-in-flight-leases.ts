import { randomUUID } from 'node:crypto';
import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { insertWithinCap } from './store-primitives';

interface LeaseDoc extends ExpiringDoc {
  endpoint_id: string;
}

/** An endpoint's POSTs in flight across workers, a lease each; a killed worker's lease lapses at `expires_at`. */
export class EndpointInFlightLeases extends ExpiringCollection<LeaseDoc>('endpoint_in_flight_leases', [{ endpoint_id: 1, expires_at: 1 }]) {
  /** A lease until `expiresAt` if fewer than `cap` of the endpoint's are alive at `now`: its id, else null. */
  async acquire(endpointId: string, cap: number, now: Date, expiresAt: Date): Promise<string | null> {
    const doc = { _id: `${endpointId}#${randomUUID()}`, endpoint_id: endpointId, expires_at: expiresAt };
    const result = await insertWithinCap(this.col, doc, { endpoint_id: endpointId, expires_at: { $gt: now } }, cap);
    return result.inserted ? doc._id : null;
  }

  async release(leaseId: string): Promise<void> {
    await this.col.deleteOne({ _id: leaseId });
  }
}

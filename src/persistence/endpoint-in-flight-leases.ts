import { randomUUID } from 'node:crypto';
import { StoreCollection } from './store-collection';

interface InFlightDoc {
  /** The endpoint's id. */
  _id: string;
  /** `<expiry, ms since the epoch>:<uuid>` of each POST in flight; a killed worker's lease is removed once it has expired. Absent: none yet. */
  leases?: string[];
}

const expiryOf = (lease: string) => Number(lease.slice(0, lease.indexOf(':')));

/** An endpoint's POSTs in flight across workers: a lease each in the endpoint's one document, pushed while fewer than the cap are there. */
export class EndpointInFlightLeases extends StoreCollection<InFlightDoc>('endpoint_in_flight_leases') {
  /** A lease until `expiresAt` if fewer than `cap` of the endpoint's are alive at `now`: its id, else null. */
  async acquire(endpointId: string, cap: number, now: Date, expiresAt: Date): Promise<string | null> {
    const lease = `${expiresAt.getTime()}:${randomUUID()}`;
    if (await this.push(endpointId, cap, lease)) return lease;
    // Refused: the endpoint's first lease (no document yet), places held by killed workers' leases, or full when it was sent.
    const doc = await this.col.findOne({ _id: endpointId });
    const lapsed = (doc?.leases ?? []).filter((l) => expiryOf(l) <= now.getTime());
    if (!doc) await this.col.updateOne({ _id: endpointId }, { $setOnInsert: { leases: [] } }, { upsert: true }); // (the embedded store leaves out the empty array)
    else if (lapsed.length > 0) await this.col.updateOne({ _id: endpointId }, { $pullAll: { leases: lapsed } });
    else if ((doc.leases ?? []).length >= cap) return null;
    return (await this.push(endpointId, cap, lease)) ? lease : null;
  }

  async release(endpointId: string, lease: string): Promise<void> {
    await this.col.updateOne({ _id: endpointId }, { $pull: { leases: lease } });
  }

  /** Pushes `lease` unless the endpoint's document holds `cap` leases already (its element `cap - 1` exists). */
  private async push(endpointId: string, cap: number, lease: string): Promise<boolean> {
    const result = await this.col.updateOne({ _id: endpointId, [`leases.${cap - 1}`]: { $exists: false } }, { $push: { leases: lease } });
    return result.modifiedCount === 1;
  }
}

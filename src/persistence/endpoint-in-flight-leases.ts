import { randomUUID } from 'node:crypto';
import { unlessIdTaken } from './mongo';
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
    // Refused: places held by killed workers' leases, or full when it was sent.
    const leases = (await this.col.findOne({ _id: endpointId }))?.leases ?? [];
    const lapsed = leases.filter((l) => expiryOf(l) <= now.getTime());
    if (lapsed.length > 0) await this.col.updateOne({ _id: endpointId }, { $pullAll: { leases: lapsed } });
    else if (leases.length >= cap) return null;
    return (await this.push(endpointId, cap, lease)) ? lease : null;
  }

  async release(endpointId: string, lease: string): Promise<void> {
    await this.col.updateOne({ _id: endpointId }, { $pull: { leases: lease } });
  }

  /** Pushes `lease` unless the endpoint's document holds `cap` leases already (its element `cap - 1` exists): then the upsert's insert meets its `_id`. */
  private async push(endpointId: string, cap: number, lease: string): Promise<boolean> {
    const pushed = await unlessIdTaken(() => this.col.updateOne({ _id: endpointId, [`leases.${cap - 1}`]: { $exists: false } }, { $push: { leases: lease } }, { upsert: true }));
    return pushed !== null;
  }
}

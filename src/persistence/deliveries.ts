import { Collection, Db } from 'mongodb';
import type { DeliveryStatus } from '../domain/webhooks/delivery-status';

export interface DeliveryDoc {
  /** = the Temporal workflow id: `delivery-<eventId>-<endpointId>`. */
  _id: string;
  account_id: string;
  event_id: number;
  endpoint_id: string;
  url: string;
  event_type: string;
  status: DeliveryStatus;
  /** Manual retries start a new round from attempt 1. */
  round: number;
  attempt_count: number;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function deliveryId(eventId: number, endpointId: string): string {
  return `delivery-${eventId}-${endpointId}`;
}

/** `deliveries`: one per (event, matching endpoint); its state is written only with $set of absolute values, so a retried activity cannot double-count. */
export class Deliveries {
  private readonly col: Collection<DeliveryDoc>;

  constructor(db: Db) {
    this.col = db.collection<DeliveryDoc>('deliveries');
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ event_id: 1 });
    await this.col.createIndex({ endpoint_id: 1, status: 1 });
  }

  /** Creates the missing ones (a re-dispatch after a crash finds some already there). */
  async insertMissing(docs: DeliveryDoc[]): Promise<void> {
    if (docs.length === 0) return;
    try {
      await this.col.insertMany(docs, { ordered: false });
    } catch (err) {
      const writeErrors = (err as { writeErrors?: Array<{ code: number }> | { code: number } }).writeErrors;
      const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
      if (list.length === 0 || list.some((e) => e.code !== 11000)) throw err;
    }
  }

  forEvent(eventId: number): Promise<DeliveryDoc[]> {
    return this.col.find({ event_id: eventId }).sort({ created_at: 1, _id: 1 }).toArray();
  }

  forEvents(eventIds: number[]): Promise<DeliveryDoc[]> {
    return this.col.find({ event_id: { $in: eventIds } }).toArray();
  }

  find(id: string): Promise<DeliveryDoc | null> {
    return this.col.findOne({ _id: id });
  }

  inFlightForEndpoint(endpointId: string): Promise<DeliveryDoc[]> {
    return this.col.find({ endpoint_id: endpointId, status: { $in: ['pending', 'retrying'] } }).toArray();
  }

  /** Writes the state of one round; a late write from an older round is ignored. */
  async setState(
    id: string,
    round: number,
    state: Pick<DeliveryDoc, 'status' | 'attempt_count' | 'next_attempt_at'>,
    at: Date,
  ): Promise<void> {
    await this.col.updateOne({ _id: id, round }, { $set: { ...state, updated_at: at } });
  }

  async startRound(id: string, round: number, at: Date): Promise<void> {
    await this.col.updateOne(
      { _id: id },
      { $set: { round, status: 'pending', attempt_count: 0, next_attempt_at: at, updated_at: at } },
    );
  }
}

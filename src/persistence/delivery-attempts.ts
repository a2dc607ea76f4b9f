import { Collection, Db } from 'mongodb';

export interface DeliveryAttemptDoc {
  /** `<deliveryId>:<round>:<attempt>`: recording the same attempt twice overwrites, never adds. */
  _id: string;
  delivery_id: string;
  event_id: number;
  round: number;
  attempt: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
  succeeded: boolean;
}

/** `delivery_attempts`: the history of every POST made for a delivery. */
export class DeliveryAttempts {
  private readonly col: Collection<DeliveryAttemptDoc>;

  constructor(db: Db) {
    this.col = db.collection<DeliveryAttemptDoc>('delivery_attempts');
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ event_id: 1 });
    await this.col.createIndex({ delivery_id: 1, round: 1, attempt: 1 });
  }

  async record(doc: DeliveryAttemptDoc): Promise<void> {
    await this.col.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }

  find(deliveryId: string, round: number, attempt: number): Promise<DeliveryAttemptDoc | null> {
    return this.col.findOne({ _id: `${deliveryId}:${round}:${attempt}` });
  }

  forEvent(eventId: number): Promise<DeliveryAttemptDoc[]> {
    return this.col.find({ event_id: eventId }).sort({ round: 1, attempt: 1 }).toArray();
  }
}

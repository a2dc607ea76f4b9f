import { Collection, Db } from 'mongodb';
import type { DeliveryStatus } from '../domain/webhooks/delivery-status';

/** One POST made for a delivery. */
export interface DeliveryAttempt {
  round: number;
  attempt: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
  succeeded: boolean;
}

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
  /** The history, every round; an attempt is keyed by (round, attempt). */
  attempts: DeliveryAttempt[];
  created_at: Date;
  updated_at: Date;
}

export function deliveryId(eventId: number, endpointId: string): string {
  return `delivery-${eventId}-${endpointId}`;
}

/**
 * `deliveries`: one per (event, matching endpoint), with its attempts inside. Only the
 * delivery's own workflow writes its state, one activity at a time, and every write sets
 * absolute values keyed by (round, attempt): a retried activity cannot double-count. All
 * hot-path reads and writes are `{_id}` lookups (the only indexed filter on FerretDB).
 */
export class Deliveries {
  private readonly col: Collection<DeliveryDoc>;

  constructor(db: Db) {
    this.col = db.collection<DeliveryDoc>('deliveries');
  }

  async ensureIndexes(): Promise<void> {
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

  /** The deliveries of an event, in its endpoint order (point reads by id). */
  async forEvent(eventId: number, endpointIds: string[]): Promise<Array<DeliveryDoc | null>> {
    return Promise.all(endpointIds.map((endpointId) => this.find(deliveryId(eventId, endpointId))));
  }

  find(id: string): Promise<DeliveryDoc | null> {
    return this.col.findOne({ _id: id });
  }

  /** Endpoint deletion only (rare): a scan on FerretDB, indexed on MongoDB. */
  inFlightForEndpoint(endpointId: string): Promise<DeliveryDoc[]> {
    return this.col.find({ endpoint_id: endpointId, status: { $in: ['pending', 'retrying'] } }).toArray();
  }

  /**
   * Records an attempt (replacing a previous record of the same round and attempt) and the
   * state it leaves the delivery in. A late write from an older round is ignored.
   */
  async recordAttempt(
    current: DeliveryDoc,
    attempt: DeliveryAttempt,
    state: Pick<DeliveryDoc, 'status' | 'attempt_count' | 'next_attempt_at' | 'url'>,
    at: Date,
  ): Promise<void> {
    // `current` was read by the same activity just before the attempt; only this delivery's
    // workflow writes it, and it writes one attempt at a time.
    if (current.round !== attempt.round) return;
    const attempts = current.attempts.filter((a) => !(a.round === attempt.round && a.attempt === attempt.attempt));
    attempts.push(attempt);
    attempts.sort((a, b) => a.round - b.round || a.attempt - b.attempt);
    await this.col.updateOne({ _id: current._id }, { $set: { ...state, attempts, updated_at: at } });
  }

  /** `current` is the record the caller just read; a write for another round than `round` is dropped. */
  async setState(current: DeliveryDoc, round: number, state: Pick<DeliveryDoc, 'status' | 'attempt_count' | 'next_attempt_at'>, at: Date): Promise<void> {
    if (current.round !== round) return;
    await this.col.updateOne({ _id: current._id }, { $set: { ...state, updated_at: at } });
  }

  async startRound(id: string, round: number, at: Date): Promise<void> {
    await this.col.updateOne({ _id: id }, { $set: { round, status: 'pending', attempt_count: 0, next_attempt_at: at, updated_at: at } });
  }
}

import { deliveryId } from '../domain/webhooks/delivery-id';
import { MAX_DELIVERY_ROUNDS, RETRYABLE_DELIVERY_STATUSES, type DeliveryStatus } from '../domain/webhooks/delivery-status';
import { readBack } from './read-back';
import { StoreCollection } from './store-collection';
import { claimOnce } from './mongo';

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

/** Which delivery a write is for (every write carries these, so the first one can create the record). */
export interface DeliveryRef {
  id: string;
  account_id: string;
  event_id: number;
  endpoint_id: string;
}

export interface DeliveryState {
  round: number;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
}

export interface DeliveryDoc extends DeliveryState, Omit<DeliveryRef, 'id'> {
  /** = the Temporal workflow id: `delivery-<eventId>-<endpointId>`. */
  _id: string;
  url: string;
  /** The history, every round, in (round, attempt) order. */
  attempts: DeliveryAttempt[];
  /** Its attempt came due while the endpoint was paused, and waits for the resume (absent = false). */
  paused?: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Attempts are a map keyed `r<round>a<attempt>`: one `$set` records one, harmless when repeated. */
interface StoredDeliveryDoc extends Omit<DeliveryDoc, 'attempts' | 'paused'> {
  attempt_log?: Record<string, DeliveryAttempt>;
  /** While it waits on its paused endpoint (markPaused): a string, so the resume's listing is indexed on the embedded store too. */
  paused_endpoint_id?: string;
}

/** Each is written only by its own workflow, one activity at a time, except a manual retry's new round. */
export class Deliveries extends StoreCollection<StoredDeliveryDoc>(
  'deliveries',
  [{ endpoint_id: 1, status: 1 }],
  [{ account_id: 1, event_id: 1 }],
  [{ paused_endpoint_id: 1, event_id: 1 }],
) {
  /** `delivery_rounds`: one per manual retry; the unique insert decides between concurrent retries. */
  private readonly rounds = this.db.collection<{ _id: string; at: Date }>('delivery_rounds');

  /** The deliveries of an event, in its endpoint order (point reads by id); null where no attempt was recorded yet. */
  async forEvent(eventId: number, endpointIds: string[]): Promise<Array<DeliveryDoc | null>> {
    return Promise.all(endpointIds.map((endpointId) => this.find(deliveryId(eventId, endpointId))));
  }

  /** Event listing: the status of those deliveries that have a record, by `{account_id, event_id: {$in}}`. */
  async statusesOf(accountId: string, eventIds: number[], ids: string[]): Promise<Map<string, DeliveryStatus>> {
    if (ids.length === 0) return new Map();
    const wanted = new Set(ids);
    const docs = await this.col.find({ account_id: accountId, event_id: { $in: eventIds } }, { projection: { _id: 1, status: 1 } }).toArray();
    return new Map(docs.filter((d) => wanted.has(d._id)).map((d) => [d._id, d.status]));
  }

  async find(id: string): Promise<DeliveryDoc | null> {
    return hydrate(await this.col.findOne({ _id: id }));
  }

  /**
   * Disable and delete (rare): the ids of the endpoint's pending and retrying deliveries, `pageSize` at a time, from one
   * cursor (the `{endpoint_id, status}` index on both stores, mongo.ts): a page in memory at a time, whatever their number.
   */
  async *inFlightIdsForEndpoint(endpointId: string, pageSize: number): AsyncGenerator<string[]> {
    const cursor = this.col.find({ endpoint_id: endpointId, status: { $in: ['pending', 'retrying'] } }, { projection: { _id: 1 }, batchSize: pageSize });
    let page: string[] = [];
    try {
      for await (const doc of cursor) {
        page.push(doc._id);
        if (page.length === pageSize) {
          yield page;
          page = [];
        }
      }
      if (page.length > 0) yield page;
    } finally {
      await cursor.close();
    }
  }

  /** Bulk recovery (rare): events whose delivery failed or was cancelled, created since `since`, oldest first. */
  async retryableForEndpointSince(endpointId: string, since: Date, limit: number): Promise<number[]> {
    const docs = await this.col
      .find({ endpoint_id: endpointId, status: { $in: [...RETRYABLE_DELIVERY_STATUSES] }, created_at: { $gte: since } }, { projection: { event_id: 1 } })
      .sort({ created_at: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => d.event_id);
  }

  /** Bulk retry-now (rare): ids of the endpoint's deliveries waiting to retry, after `after` in id order. */
  async waitingForEndpoint(endpointId: string, after: string | undefined, limit: number): Promise<string[]> {
    const docs = await this.col
      .find({ endpoint_id: endpointId, status: 'retrying', ...(after !== undefined ? { _id: { $gt: after } } : {}) }, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => d._id);
  }

  /** Resume (rare): oldest event first, after `afterEventId`; the `{paused_endpoint_id, event_id}` index on both stores. */
  async pausedForEndpoint(endpointId: string, afterEventId: number | undefined, limit: number): Promise<Array<{ id: string; eventId: number }>> {
    const docs = await this.col
      .find({ paused_endpoint_id: endpointId, ...(afterEventId !== undefined ? { event_id: { $gt: afterEventId } } : {}) }, { projection: { _id: 1, event_id: 1 } })
      .sort({ event_id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => ({ id: d._id, eventId: d.event_id }));
  }

  /** Written before the attempt reads the endpoint again (activities/attempt-gate.ts), kept until the next state. */
  async markPaused(ref: DeliveryRef, round: number, at: Date): Promise<void> {
    await this.col.updateOne(
      { _id: ref.id },
      {
        $set: { paused_endpoint_id: ref.endpoint_id, ...refFields(ref), updated_at: at },
        $setOnInsert: { round, status: 'pending', attempt_count: 0, next_attempt_at: at, created_at: at },
      },
      { upsert: true },
    );
  }

  /** One write: the attempt (replacing an earlier record of the same round and attempt) and the state it leaves. */
  async recordAttempt(ref: DeliveryRef, attempt: DeliveryAttempt, state: DeliveryState & { url: string }, at: Date): Promise<void> {
    await this.upsert(ref, { ...state, [`attempt_log.r${attempt.round}a${attempt.attempt}`]: attempt }, at);
  }

  /** One write: the state alone (a cancellation). */
  async setState(ref: DeliveryRef, state: DeliveryState, at: Date): Promise<void> {
    await this.upsert(ref, { ...state }, at);
  }

  /** Exactly one of concurrent manual retries of a delivery wins round `round`. */
  async claimRound(id: string, round: number, at: Date): Promise<boolean> {
    return claimOnce(this.rounds, { _id: roundClaimId(id, round), at });
  }

  /** Restarts a round whose start was cut short: one caller wins, once the last claim is older than `staleBefore` (till then its claimer may be starting it). */
  async claimRoundRestart(id: string, round: number, staleBefore: Date, at: Date): Promise<boolean> {
    const _id = roundClaimId(id, round);
    if (await claimOnce(this.rounds, { _id, at })) return true;
    return (await this.rounds.updateOne({ _id, at: { $lt: staleBefore } }, { $set: { at } })).modifiedCount === 1;
  }

  /** Written before the round's workflow starts, so its first attempt finds the round it belongs to. */
  async startRound(id: string, round: number, at: Date): Promise<void> {
    await this.col.updateOne({ _id: id }, { $set: { round, status: 'pending', attempt_count: 0, next_attempt_at: at, updated_at: at } });
  }

  /** Retention: these events' deliveries and round claims (a restarted round 1's too), by `{_id}` deletes. */
  async deleteForEvents(events: Array<{ _id: number; endpoint_ids: string[] }>): Promise<void> {
    const ids = events.flatMap((e) => e.endpoint_ids.map((endpointId) => deliveryId(e._id, endpointId)));
    if (ids.length === 0) return;
    const rounds = ids.flatMap((id) => Array.from({ length: MAX_DELIVERY_ROUNDS }, (_, i) => roundClaimId(id, i + 1)));
    await this.col.bulkWrite(ids.map((_id) => ({ deleteOne: { filter: { _id } } })), { ordered: false });
    await this.rounds.bulkWrite(rounds.map((_id) => ({ deleteOne: { filter: { _id } } })), { ordered: false });
  }

  /** Every state written ends a wait on a paused endpoint: the attempt was made, or the delivery ended. */
  private async upsert(ref: DeliveryRef, fields: Record<string, unknown>, at: Date): Promise<void> {
    await this.col.updateOne(
      { _id: ref.id },
      {
        $set: { ...fields, ...refFields(ref), updated_at: at },
        $unset: { paused_endpoint_id: '' },
        $setOnInsert: { created_at: at },
      },
      { upsert: true },
    );
  }
}

/** A manual retry's claim of a round: `<delivery>#<round>`. */
export const roundClaimId = (id: string, round: number) => `${id}#${round}`;

const refFields = (ref: DeliveryRef) => ({
  account_id: ref.account_id,
  event_id: ref.event_id,
  endpoint_id: ref.endpoint_id,
});

/** The DeliveryDoc fields stored as they are: all readBack keeps (`attempt_log`, for one, becomes `attempts` in hydrate). */
type StoredAsIs = Omit<DeliveryDoc, 'url' | 'attempts' | 'paused'>;
const STORED_AS_IS: Record<keyof StoredAsIs, true> = {
  _id: true,
  account_id: true,
  event_id: true,
  endpoint_id: true,
  round: true,
  status: true,
  attempt_count: true,
  next_attempt_at: true,
  created_at: true,
  updated_at: true,
};

function hydrate(doc: StoredDeliveryDoc | null): DeliveryDoc | null {
  if (!doc) return null;
  const attempts = Object.values(doc.attempt_log ?? {}).sort((a, b) => a.round - b.round || a.attempt - b.attempt);
  return { ...readBack<StoredAsIs>(doc, STORED_AS_IS), url: doc.url ?? '', attempts, ...(doc.paused_endpoint_id !== undefined ? { paused: true } : {}) };
}

import type { KeyIssuer } from '../domain/webhooks/idempotency-key';
import type { ExpiringDoc } from './expiring-collection';
import { StoreCollection } from './store-collection';
import { claimOnce, type ExpirySweepers } from './store-primitives';

export interface IdempotencyRecordDoc extends ExpiringDoc {
  /** recordId: one record per issuer and key; a later use of an expired key replaces it. */
  _id: string;
  account_id: string;
  issuer: KeyIssuer;
  key: string;
  event_id: number;
  /** The original 202 body, answered again (with 200) to every repeat. */
  response: Record<string, unknown>;
  created_at: Date;
}

export type NewIdempotencyRecord = Omit<IdempotencyRecordDoc, '_id'>;

/** `<account>:<key>` for an account's keys; `platform/<account>:<key>` for the platform's (no account id starts `platform/`). */
const recordId = (issuer: KeyIssuer, accountId: string, key: string) => (issuer === 'platform' ? `platform/${accountId}:${key}` : `${accountId}:${key}`);
/** Claims tried before giving up (the caller answers 5xx): each lost try means another claimer or retention changed the record. */
const MAX_TRIES = 3;

/**
 * (account, key) → the event it created, valid 24 h (checked on read). The unique insert decides between concurrent first
 * uses; an expired record is replaced only while it still names the event read, so of concurrent successors one wins.
 * Where TTL is refused, no purge timer (it would delete by `_id` a successor's record): they go with their event.
 */
export class IdempotencyRecords extends StoreCollection<IdempotencyRecordDoc>('idempotency_records') {
  override async ensureIndexes(expiry: ExpirySweepers): Promise<void> {
    await expiry.ensureExpiry(this.col, { ttlOnly: true });
  }

  find(accountId: string, key: string, issuer: KeyIssuer = 'account'): Promise<IdempotencyRecordDoc | null> {
    return this.col.findOne({ _id: recordId(issuer, accountId, key) });
  }

  /** Makes `record` the key's record unless a valid one exists; returns the key's record either way. */
  async claim(record: NewIdempotencyRecord, now: () => Date): Promise<IdempotencyRecordDoc> {
    const doc = { ...record, _id: recordId(record.issuer, record.account_id, record.key) };
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      if (await claimOnce(this.col, doc)) return doc;
      const current = await this.col.findOne({ _id: doc._id });
      // Gone (purged in between): the key is free again.
      if (!current) continue;
      if (current.expires_at > now() || current.event_id === record.event_id) return current;
      if ((await this.col.replaceOne({ _id: doc._id, event_id: current.event_id }, record)).modifiedCount === 1) return doc;
    }
    throw new Error(`idempotency record ${doc._id} changed under every claim; try again`);
  }

  /** Retention: deletes the record if it still names `eventId` (a successor's record stays). */
  async purge(issuer: KeyIssuer, accountId: string, key: string, eventId: number): Promise<void> {
    await this.col.deleteOne({ _id: recordId(issuer, accountId, key), event_id: eventId });
  }
}

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

interface SuccessionDoc extends ExpiringDoc {
  /** `<record id>@<event id of the expired record>`: who may replace that record. */
  _id: string;
  /** Absent: retention's tombstone, the record is being deleted (purge), not replaced. */
  record?: NewIdempotencyRecord;
}

/** `<account>:<key>` for an account's keys; `platform/<account>:<key>` for the platform's (no account id starts `platform/`). */
const recordId = (issuer: KeyIssuer, accountId: string, key: string) => (issuer === 'platform' ? `platform/${accountId}:${key}` : `${accountId}:${key}`);
const RETRY_PAUSE_MS = 5;
/** A tombstone this old belongs to a purge that died before its delete: a successor finishes it. */
const ABANDONED_TOMBSTONE_MS = 10 * 60_000;
/** A claim waits this many pauses for a purge's delete before it gives up (the caller answers 5xx). */
const MAX_PURGE_WAITS = 400;

/**
 * (account, key) → the event it created, valid 24 h (checked on read); an expired record is replaced by the one winner of
 * its succession claim. Where TTL is refused, no purge timer (it may delete a successor's record): they go with their event.
 */
export class IdempotencyRecords extends StoreCollection<IdempotencyRecordDoc>('idempotency_records') {
  private readonly successions = this.db.collection<SuccessionDoc>('idempotency_successions');

  override async ensureIndexes(expiry: ExpirySweepers): Promise<void> {
    await expiry.ensureExpiry(this.col, { ttlOnly: true });
    await expiry.ensureExpiry(this.successions, { ttlOnly: true });
  }

  find(accountId: string, key: string, issuer: KeyIssuer = 'account'): Promise<IdempotencyRecordDoc | null> {
    return this.col.findOne({ _id: recordId(issuer, accountId, key) });
  }

  /** Makes `record` the key's record unless a valid one exists; returns the key's record either way. */
  async claim(record: NewIdempotencyRecord, now: () => Date): Promise<IdempotencyRecordDoc> {
    const _id = recordId(record.issuer, record.account_id, record.key);
    for (let vanished = 0, purging = 0; ; ) {
      if (await claimOnce(this.col, { ...record, _id })) return { ...record, _id };
      const current = await this.col.findOne({ _id });
      if (!current) {
        // Purged in between (the key is free again); never more than once or twice in a row.
        if (++vanished > 3) throw new Error(`idempotency record ${_id} is refused as a duplicate but cannot be read`);
        continue;
      }
      if (current.expires_at > now() || current.event_id === record.event_id) return current;
      if ((await this.succeed(current, record)) === 'purging' && ++purging > MAX_PURGE_WAITS) {
        throw new Error(`idempotency record ${_id} is being purged; try again`);
      }
    }
  }

  /** Replaces an expired record (or completes a racing successor's); 'purging': retention is deleting it. */
  private async succeed(expired: IdempotencyRecordDoc, record: NewIdempotencyRecord): Promise<'done' | 'purging'> {
    const _id = `${expired._id}@${expired.event_id}`;
    let winner: NewIdempotencyRecord = record;
    if (!(await claimOnce(this.successions, { _id, record, expires_at: record.expires_at }))) {
      const existing = await this.successions.findOne({ _id });
      if (!existing) return 'done'; // purged with its record: start over
      await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
      if (!existing.record) {
        // A purge that died before its delete: one successor per period finishes it (still one deleter at a time).
        const period = Math.floor((Date.now() - existing.expires_at.getTime()) / ABANDONED_TOMBSTONE_MS);
        if (period > 0 && (await claimOnce(this.successions, { _id: `${_id}#${period}`, expires_at: existing.expires_at }))) {
          await this.col.deleteOne({ _id: expired._id, event_id: expired.event_id });
        }
        return 'purging';
      }
      winner = existing.record;
    }
    await this.col.replaceOne({ _id: expired._id, event_id: expired.event_id }, winner);
    return 'done';
  }

  /**
   * Retention: deletes the record if it still names `eventId`. Embedded-store deletes are not atomic, so two deleters could
   * remove a record claimed in between: the purge first claims the succession with a tombstone (see succeed).
   */
  async purge(issuer: KeyIssuer, accountId: string, key: string, eventId: number): Promise<void> {
    const _id = recordId(issuer, accountId, key);
    const succession = `${_id}@${eventId}`;
    // Dated by this process's clock, as successors read it (see succeed).
    if (await claimOnce(this.successions, { _id: succession, expires_at: new Date() })) {
      await this.col.deleteOne({ _id, event_id: eventId });
    } else if ((await this.col.findOne({ _id }))?.event_id === eventId) {
      return; // a successor is replacing the record now (or a purge deleting it)
    }
    await this.successions.deleteOne({ _id: succession });
  }
}

import { Collection, Db } from 'mongodb';
import { insertUnique } from './unique-sequence';
import type { ExpirySweepers } from './ttl';

export interface IdempotencyRecordDoc {
  /** `<account>:<key>`: one record per key; a later use of an expired key replaces it. */
  _id: string;
  account_id: string;
  key: string;
  event_id: number;
  /** The original 202 body, answered again (with 200) to every repeat. */
  response: Record<string, unknown>;
  created_at: Date;
  expires_at: Date;
}

export type NewIdempotencyRecord = Omit<IdempotencyRecordDoc, '_id'>;

interface SuccessionDoc {
  /** `<account>:<key>@<event id of the expired record>`: who may replace that record. */
  _id: string;
  record: NewIdempotencyRecord;
  expires_at: Date;
}

const recordId = (accountId: string, key: string) => `${accountId}:${key}`;
const RETRY_PAUSE_MS = 5;

/**
 * `idempotency_records`: (account, key) → the event it created, valid 24 h. Claiming a free key
 * is one insert with a unique `_id` (insertUnique, unique-sequence.ts), so of concurrent ingests exactly one wins. An expired
 * record is replaced through `idempotency_successions`: the unique insert of "successor of
 * event N" picks one winner, and the replacement is conditional on the record still naming N.
 * Validity is decided by `expires_at` on read, never by when records are purged.
 *
 * Purging: MongoDB's TTL index deletes a record atomically, only while it is expired. The
 * embedded store has no TTL index and no atomic conditional delete, and a purge there could
 * remove a record that a successor has just written; so it keeps records (at most one per
 * event ingested with a key).
 */
export class IdempotencyRecords {
  private readonly col: Collection<IdempotencyRecordDoc>;
  private readonly successions: Collection<SuccessionDoc>;

  constructor(db: Db) {
    this.col = db.collection<IdempotencyRecordDoc>('idempotency_records');
    this.successions = db.collection<SuccessionDoc>('idempotency_successions');
  }

  async ensureIndexes(expiry: ExpirySweepers): Promise<void> {
    await expiry.ensureExpiry(this.col, 'expires_at', { ttlOnly: true });
    await expiry.ensureExpiry(this.successions, 'expires_at', { ttlOnly: true });
  }

  find(accountId: string, key: string): Promise<IdempotencyRecordDoc | null> {
    return this.col.findOne({ _id: recordId(accountId, key) });
  }

  /**
   * Makes `record` the key's record unless a valid one exists; returns the key's record
   * afterwards (which names `record.event_id` exactly when this call, or an earlier claim for
   * the same event, won).
   */
  async claim(record: NewIdempotencyRecord, now: () => Date): Promise<IdempotencyRecordDoc> {
    const _id = recordId(record.account_id, record.key);
    for (let vanished = 0; ; ) {
      if (await insertUnique(this.col, { ...record, _id })) return { ...record, _id };
      const current = await this.col.findOne({ _id });
      if (!current) {
        // Purged in between (the key is free again); never more than once or twice in a row.
        if (++vanished > 3) throw new Error(`idempotency record ${_id} is refused as a duplicate but cannot be read`);
        continue;
      }
      if (current.expires_at > now() || current.event_id === record.event_id) return current;
      await this.succeed(current, record);
    }
  }

  /** Replaces an expired record; a concurrent successor's replacement is completed on its behalf. */
  private async succeed(expired: IdempotencyRecordDoc, record: NewIdempotencyRecord): Promise<void> {
    const _id = `${expired._id}@${expired.event_id}`;
    let winner: NewIdempotencyRecord = record;
    if (!(await insertUnique(this.successions, { _id, record, expires_at: record.expires_at }))) {
      const existing = await this.successions.findOne({ _id });
      if (!existing) return; // purged with its record: start over
      winner = existing.record;
      await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
    }
    await this.col.replaceOne({ _id: expired._id, event_id: expired.event_id }, winner);
  }
}

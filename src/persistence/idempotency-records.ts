import { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from './mongo';
import { ensureExpiry } from './ttl';

export interface IdempotencyRecordDoc {
  /** `<account>:<generation>:<key>`: a new generation starts once the previous one expired. */
  _id: string;
  account_id: string;
  key: string;
  generation: number;
  event_id: number;
  /** The original 202 body, answered again (with 200) to every repeat. */
  response: Record<string, unknown>;
  created_at: Date;
  expires_at: Date;
}

/**
 * `idempotency_records`: (account, key) → the event it created, valid 24 h. Claiming a key
 * is an insert with a unique _id, so of concurrent ingests with one key exactly one wins.
 * Validity is decided by `expires_at` on read, never by when expired records are purged.
 */
export class IdempotencyRecords {
  private readonly col: Collection<IdempotencyRecordDoc>;

  constructor(db: Db) {
    this.col = db.collection<IdempotencyRecordDoc>('idempotency_records');
  }

  async ensureIndexes(): Promise<'ttl-index' | 'purge-timer'> {
    await this.col.createIndex({ account_id: 1, key: 1, generation: -1 });
    return ensureExpiry(this.col, 'expires_at');
  }

  latest(accountId: string, key: string): Promise<IdempotencyRecordDoc | null> {
    return this.col.find({ account_id: accountId, key }).sort({ generation: -1 }).limit(1).next();
  }

  /** true when this record won the key; false when another ingest holds that generation. */
  async claim(doc: Omit<IdempotencyRecordDoc, '_id'>): Promise<boolean> {
    try {
      await this.col.insertOne({ ...doc, _id: `${doc.account_id}:${doc.generation}:${doc.key}` });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
}

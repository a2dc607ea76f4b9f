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

const recordId = (accountId: string, generation: number, key: string) => `${accountId}:${generation}:${key}`;
const headId = (accountId: string, key: string) => `${accountId}:${key}`;
const HEAD_GRACE_MS = 24 * 3600 * 1000;

interface HeadDoc {
  _id: string;
  generation: number;
  expires_at: Date;
}

/**
 * `idempotency_records`: (account, key) → the event it created, valid 24 h. Claiming a key
 * is an insert with a unique _id, so of concurrent ingests with one key exactly one wins.
 * Validity is decided by `expires_at` on read, never by when expired records are purged.
 */
export class IdempotencyRecords {
  private readonly col: Collection<IdempotencyRecordDoc>;
  /** `idempotency_heads`: the latest generation of each key (a hint: see latest()). */
  private readonly heads: Collection<HeadDoc>;

  constructor(db: Db) {
    this.col = db.collection<IdempotencyRecordDoc>('idempotency_records');
    this.heads = db.collection<HeadDoc>('idempotency_heads');
  }

  async ensureIndexes(): Promise<'ttl-index' | 'purge-timer'> {
    await ensureExpiry(this.heads, 'expires_at');
    return ensureExpiry(this.col, 'expires_at');
  }

  /**
   * The newest record of a key and the generation a new claim must take. Found with `{_id}`
   * lookups only (the one indexed read on the embedded store): a small head document names
   * the latest generation, and generations above it are probed until one is missing, so a
   * head that lags behind a concurrent claim is harmless.
   */
  async latest(accountId: string, key: string): Promise<{ record: IdempotencyRecordDoc | null; nextGeneration: number }> {
    const head = await this.heads.findOne({ _id: headId(accountId, key) });
    let record: IdempotencyRecordDoc | null = null;
    let generation = head?.generation ?? 1;
    let highest = generation - 1;
    for (;; generation++) {
      const doc = await this.col.findOne({ _id: recordId(accountId, generation, key) });
      if (!doc) break;
      highest = generation;
      // After purges a generation can restart; the newest record is the one created last.
      if (!record || doc.created_at > record.created_at) record = doc;
    }
    return { record, nextGeneration: highest + 1 };
  }

  /** true when this record won the key; false when another ingest holds that generation. */
  async claim(doc: Omit<IdempotencyRecordDoc, '_id'>): Promise<boolean> {
    try {
      await this.col.insertOne({ ...doc, _id: recordId(doc.account_id, doc.generation, doc.key) });
      // Outlives the record by a window, so the next claim finds where to probe from.
      const expires_at = new Date(doc.expires_at.getTime() + HEAD_GRACE_MS);
      await this.heads.updateOne({ _id: headId(doc.account_id, doc.key) }, { $set: { generation: doc.generation, expires_at } }, { upsert: true });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
}

import { Collection, Db } from 'mongodb';
import type { WindowRecord } from '../domain/limits/rate-limiter';
import { isDuplicateKeyError } from './mongo';
import { ensureExpiry } from './ttl';

interface WindowDoc {
  _id: string;
  bucket: string;
  seq: number;
  start: Date;
  end: Date;
  expires_at: Date;
}

/** `limit_windows`: one document per burst window of a bucket; `_id` = bucket#seq makes opening a window a race-free insert. */
export class LimitWindows {
  private readonly col: Collection<WindowDoc>;

  constructor(db: Db) {
    this.col = db.collection<WindowDoc>('limit_windows');
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ bucket: 1, seq: -1 });
    await ensureExpiry(this.col, 'expires_at');
  }

  async latestWindow(bucket: string): Promise<WindowRecord | null> {
    const doc = await this.col.find({ bucket }).sort({ seq: -1 }).limit(1).next();
    return doc ? { seq: doc.seq, start: doc.start, end: doc.end } : null;
  }

  async createWindow(bucket: string, window: WindowRecord, expiresAt: Date): Promise<boolean> {
    try {
      await this.col.insertOne({ _id: `${bucket}#${window.seq}`, bucket, seq: window.seq, start: window.start, end: window.end, expires_at: expiresAt });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
}

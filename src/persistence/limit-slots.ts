import { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from './mongo';
import { ensureExpiry } from './ttl';

interface SlotDoc {
  _id: string;
  scope: string;
  k: number;
  expires_at: Date;
}

/**
 * `limit_slots`: one document per admitted call in a burst window or billing period.
 * `_id` = scope#k, so each slot can be claimed by exactly one caller (see RateLimiter).
 */
export class LimitSlots {
  private readonly col: Collection<SlotDoc>;

  constructor(db: Db) {
    this.col = db.collection<SlotDoc>('limit_slots');
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ scope: 1, k: -1 });
    await ensureExpiry(this.col, 'expires_at');
  }

  async claimSlot(scope: string, k: number, expiresAt: Date): Promise<boolean> {
    try {
      await this.col.insertOne({ _id: `${scope}#${k}`, scope, k, expires_at: expiresAt });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async releaseSlot(scope: string, k: number): Promise<void> {
    await this.col.deleteOne({ _id: `${scope}#${k}` });
  }

  async highestSlot(scope: string): Promise<number> {
    const doc = await this.col.find({ scope }, { projection: { k: 1 } }).sort({ k: -1 }).limit(1).next();
    return doc?.k ?? 0;
  }

  async takenSlots(scope: string): Promise<number[]> {
    const docs = await this.col.find({ scope }, { projection: { k: 1 } }).toArray();
    return docs.map((d) => d.k);
  }
}

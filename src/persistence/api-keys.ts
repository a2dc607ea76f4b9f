import type { Product } from '../domain/keys/products';
import { accountCountsOf } from './account-counts';
import { cacheInvalidationsOf } from './cache-invalidations';
import { StoreCollection } from './store-collection';

export interface ApiKeyDoc {
  _id: string;
  account_id: string;
  product: Product;
  label: string;
  /** SHA-256 of the full key; the key itself is never stored. */
  hash: string;
  display_prefix: string;
  last_four: string;
  created_at: Date;
  revoked_at: Date | null;
}

export class ApiKeys extends StoreCollection<ApiKeyDoc>('api_keys', [{ hash: 1 }, { unique: true }], [{ account_id: 1, created_at: -1 }]) {
  private readonly invalidations = cacheInvalidationsOf(this.db);
  private readonly counts = accountCountsOf(this.db);

  /** Inserts `doc` unless its account would then hold more than `max` live keys (false); exact under concurrent creates. */
  async insertIfRoom(doc: ApiKeyDoc, max: number): Promise<boolean> {
    return this.counts.insertIfRoom(doc.account_id, 'live_keys', max, () => this.col.insertOne(doc));
  }

  findByHash(hash: string): Promise<ApiKeyDoc | null> {
    return this.col.findOne({ hash });
  }

  findById(id: string): Promise<ApiKeyDoc | null> {
    return this.col.findOne({ _id: id });
  }

  /** Every key the account keeps, newest first: at most its live-key cap and its kept revoked keys (domain/keys/revoked-keys.ts). */
  listForAccount(accountId: string): Promise<ApiKeyDoc[]> {
    return this.col.find({ account_id: accountId }).sort({ created_at: -1 }).toArray();
  }

  /** Deletes revoked keys (the revocation is part of the filter): one `_id` delete each (mongo.ts). */
  async deleteRevoked(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.col.deleteOne({ _id: id, revoked_at: { $ne: null } });
  }

  /** Idempotent; a repeat is logged again only within `reannounceWithinMs` (mends a crash before the log; each entry costs every process a read). */
  async revoke(id: string, at: Date, reannounceWithinMs: number, accountId?: string): Promise<ApiKeyDoc | null> {
    const filter = accountId ? { _id: id, account_id: accountId } : { _id: id };
    const existing = await this.col.findOne(filter);
    if (!existing) return null;
    if (existing.revoked_at && at.getTime() - existing.revoked_at.getTime() > reannounceWithinMs) return existing;
    if (!existing.revoked_at && (await this.col.updateOne({ _id: id, revoked_at: null }, { $set: { revoked_at: at } })).modifiedCount === 1) {
      await this.counts.giveBack(existing.account_id, 'live_keys');
    }
    await this.invalidations.append({ kind: 'key_revoked', key_hash: existing.hash }, at);
    return this.col.findOne({ _id: id });
  }
}

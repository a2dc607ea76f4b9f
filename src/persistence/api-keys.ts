import { Collection, Db } from 'mongodb';
import type { Product } from '../domain/keys/products';
import { CacheInvalidations, cacheInvalidationsOf } from './cache-invalidations';

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

/**
 * `api_keys`: looked up by hash (unique index) when a process meets a key it has not cached.
 * A revocation is also written to the cache-invalidations log, which every API process follows
 * to drop its cached copy (cache-invalidations.ts).
 */
export class ApiKeys {
  private readonly col: Collection<ApiKeyDoc>;
  private readonly invalidations: CacheInvalidations;

  constructor(db: Db) {
    this.col = db.collection<ApiKeyDoc>('api_keys');
    this.invalidations = cacheInvalidationsOf(db);
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ hash: 1 }, { unique: true });
    await this.col.createIndex({ account_id: 1, created_at: -1 });
  }

  async insert(doc: ApiKeyDoc): Promise<void> {
    await this.col.insertOne(doc);
  }

  /** Removes a key that was never handed out (a create refused after its insert). */
  async deleteUnissued(id: string): Promise<void> {
    await this.col.deleteOne({ _id: id });
  }

  /** The account's unrevoked keys created no later than `doc` (ties broken by id), `doc` included. */
  async liveUpTo(doc: Pick<ApiKeyDoc, '_id' | 'account_id' | 'created_at'>): Promise<number> {
    const live = await this.col.find({ account_id: doc.account_id, revoked_at: null }, { projection: { _id: 1, created_at: 1 } }).toArray();
    return live.filter((k) => k.created_at < doc.created_at || (k.created_at.getTime() === doc.created_at.getTime() && k._id <= doc._id)).length;
  }

  findByHash(hash: string): Promise<ApiKeyDoc | null> {
    return this.col.findOne({ hash });
  }

  findById(id: string): Promise<ApiKeyDoc | null> {
    return this.col.findOne({ _id: id });
  }

  listForAccount(accountId: string): Promise<ApiKeyDoc[]> {
    return this.col.find({ account_id: accountId }).sort({ created_at: -1 }).toArray();
  }

  /**
   * Idempotent: a revoked key keeps its first revocation time. The change is logged after the key
   * is written (a process that drops its copy then reads the revoked key). A repeat is logged
   * again only while a cached copy of the key may still live (`reannounceWithinMs` of the first
   * revocation), so that a revocation whose logging a crash interrupted is announced by calling it
   * again; later repeats write nothing (every entry costs every process a read).
   */
  async revoke(id: string, at: Date, reannounceWithinMs: number, accountId?: string): Promise<ApiKeyDoc | null> {
    const filter = accountId ? { _id: id, account_id: accountId } : { _id: id };
    const existing = await this.col.findOne(filter);
    if (!existing) return null;
    if (existing.revoked_at && at.getTime() - existing.revoked_at.getTime() > reannounceWithinMs) return existing;
    if (!existing.revoked_at) await this.col.updateOne({ _id: id, revoked_at: null }, { $set: { revoked_at: at } });
    await this.invalidations.append({ kind: 'key_revoked', key_hash: existing.hash }, at);
    return this.col.findOne({ _id: id });
  }
}

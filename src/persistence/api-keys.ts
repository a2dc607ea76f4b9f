import { Collection, Db } from 'mongodb';
import type { Product } from '../domain/keys/products';

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

/** `api_keys`: looked up by hash (unique index) on every key-scoped call. */
export class ApiKeys {
  private readonly col: Collection<ApiKeyDoc>;

  constructor(db: Db) {
    this.col = db.collection<ApiKeyDoc>('api_keys');
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ hash: 1 }, { unique: true });
    await this.col.createIndex({ account_id: 1, created_at: -1 });
  }

  async insert(doc: ApiKeyDoc): Promise<void> {
    await this.col.insertOne(doc);
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

  /** Idempotent: a revoked key keeps its first revocation time. */
  async revoke(id: string, at: Date, accountId?: string): Promise<ApiKeyDoc | null> {
    const filter = accountId ? { _id: id, account_id: accountId } : { _id: id };
    const existing = await this.col.findOne(filter);
    if (!existing) return null;
    if (!existing.revoked_at) await this.col.updateOne({ _id: id, revoked_at: null }, { $set: { revoked_at: at } });
    return this.col.findOne({ _id: id });
  }
}

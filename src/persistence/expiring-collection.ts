import { Collection, Db, Document, IndexSpecification } from 'mongodb';
import type { ExpirySweepers } from './store-primitives';

/** A document that expires at `expires_at`. */
export interface ExpiringDoc {
  _id: string;
  expires_at: Date;
}

/**
 * A collection whose documents expire at their `expires_at` (a TTL index, or a purge timer on the
 * embedded store: ExpirySweepers), with the one index its queries need. A purge may lag, so reads
 * that care about expiry filter on the date themselves.
 */
export abstract class ExpiringCollection<T extends Document & ExpiringDoc> {
  protected readonly col: Collection<T>;

  constructor(
    db: Db,
    name: string,
    private readonly queryIndex?: IndexSpecification,
  ) {
    this.col = db.collection<T>(name);
  }

  async ensureIndexes(expiry: ExpirySweepers): Promise<void> {
    if (this.queryIndex) await this.col.createIndex(this.queryIndex);
    await expiry.ensureExpiry(this.col, 'expires_at');
  }
}

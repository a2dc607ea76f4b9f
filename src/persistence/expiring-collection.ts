import { Collection, Db, Document, IndexSpecification } from 'mongodb';
import type { ExpirySweepers } from './store-primitives';

export interface ExpiringDoc {
  _id: string;
  expires_at: Date;
}

/** A collection of ExpiringDocs with the one index its queries need; a purge may lag (expire-at.ts), so reads that care filter on the date. */
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
    await expiry.ensureExpiry(this.col);
  }
}

import { Collection, Db, Document, IndexSpecification } from 'mongodb';
import type { ExpirySweepers } from './store-primitives';

export interface ExpiringDoc {
  _id: string;
  expires_at: Date;
}

/** The base of a class over collection `name` of ExpiringDocs, with the one index its queries need; a purge may lag (expire-at.ts), so reads that care filter on the date. */
export function ExpiringCollection<T extends Document & ExpiringDoc>(name: string, queryIndex?: IndexSpecification) {
  return class {
    protected readonly col: Collection<T>;

    /** `db`: for a subclass's companion collections. */
    constructor(protected readonly db: Db) {
      this.col = db.collection<T>(name);
    }

    async ensureIndexes(expiry: ExpirySweepers): Promise<void> {
      if (queryIndex) await this.col.createIndex(queryIndex);
      await expiry.ensureExpiry(this.col);
    }
  };
}

import type { Document } from 'mongodb';
import { StoreCollection, type IndexOf } from './store-collection';
import type { ExpirySweepers } from './expiry-sweepers';

export interface ExpiringDoc {
  _id: string;
  expires_at: Date;
}

/** The base of a class over collection `name` of ExpiringDocs, with the indexes its queries need; a purge may lag (expire-at.ts), so reads that care filter on the date. */
export function ExpiringCollection<T extends Document & ExpiringDoc>(name: string, ...indexes: IndexOf[]) {
  return class extends StoreCollection<T>(name, ...indexes) {
    override async ensureIndexes(expiry: ExpirySweepers): Promise<void> {
      await super.ensureIndexes(expiry);
      await expiry.ensureExpiry(this.col);
    }
  };
}

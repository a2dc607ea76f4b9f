import type { Document } from 'mongodb';
import { StoreCollection, type IndexOf } from './store-collection';

export interface ExpiringDoc {
  _id: string;
  expires_at: Date;
}

/** Deletes each document once `expires_at` has passed, on MongoDB and on the embedded store alike (docs/embedded-store.md). */
const TTL_INDEX: IndexOf = [{ expires_at: 1 }, { expireAfterSeconds: 0, name: 'expires_at_ttl' }];

/** The base of a class over collection `name` of ExpiringDocs, with the indexes its queries need and the TTL index; deletion may lag, so reads that care filter on the date. */
export function ExpiringCollection<T extends Document & ExpiringDoc>(name: string, ...indexes: IndexOf[]) {
  return StoreCollection<T>(name, ...indexes, TTL_INDEX);
}

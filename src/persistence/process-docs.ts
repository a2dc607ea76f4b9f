import type { Filter } from 'mongodb';
import { StoreCollection } from './store-collection';

/** The base of a class over collection `name`: one document per running process (a handful: a scan is cheap), written only by that process and rewritten to renew it. */
export function ProcessDocs<T extends { _id: string }>(name: string) {
  return class extends StoreCollection<T>(name) {
    async renew(doc: T): Promise<void> {
      await this.col.replaceOne({ _id: doc._id } as Filter<T>, doc, { upsert: true });
    }

    list(filter: Filter<T> = {}): Promise<T[]> {
      return this.col.find(filter).toArray() as Promise<T[]>;
    }

    /** Only while it matches `filter` (as read), so a renewal since stays (the delete is atomic). false: none removed. */
    async remove(id: string, filter: Filter<T> = {}): Promise<boolean> {
      return (await this.col.deleteOne({ _id: id, ...filter } as Filter<T>)).deletedCount === 1;
    }
  };
}

import type { Collection, CreateIndexesOptions, Db, Document, IndexSpecification } from 'mongodb';

export type IndexOf = [IndexSpecification, CreateIndexesOptions?];

/** The base of a class over collection `name`, which creates `indexes` in order. */
export function StoreCollection<T extends Document>(name: string, ...indexes: IndexOf[]) {
  return class {
    protected readonly col: Collection<T>;

    /** `db`: for a subclass's companion collections. */
    constructor(protected readonly db: Db) {
      this.col = db.collection<T>(name);
    }

    async ensureIndexes(): Promise<void> {
      for (const [spec, options] of indexes) await this.col.createIndex(spec, options);
    }
  };
}

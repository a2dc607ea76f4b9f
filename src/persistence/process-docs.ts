import type { Collection, Db, Filter } from 'mongodb';

/** One document per running process (a handful: a scan is cheap), written only by that process and rewritten to renew it. */
export class ProcessDocs<T extends { _id: string }> {
  private readonly col: Collection<T>;

  constructor(db: Db, name: string) {
    this.col = db.collection<T>(name);
  }

  async renew(doc: T): Promise<void> {
    await this.col.replaceOne({ _id: doc._id } as Filter<T>, doc, { upsert: true });
  }

  list(filter: Filter<T> = {}): Promise<T[]> {
    return this.col.find(filter).toArray() as Promise<T[]>;
  }

  /**
   * Removes process `id`'s document only while it still matches `filter` (as read), so a renewed one stays;
   * on FerretDB a renewal racing this command is lost until the next (an upsert). false when none was removed.
   */
  async remove(id: string, filter: Filter<T> = {}): Promise<boolean> {
    return (await this.col.deleteOne({ _id: id, ...filter } as Filter<T>)).deletedCount === 1;
  }
}

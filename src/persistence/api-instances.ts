import { Collection, Db } from 'mongodb';

export interface ApiInstanceDoc {
  /** The lease id an API process writes into the events it accepts (`owner`). */
  _id: string;
  /** Renewed every few seconds; once past, the process is taken for dead and its events are recovered. */
  expires_at: Date;
  /** Every event this process accepted with an id at most this has been handed to Temporal. */
  watermark: number;
  started_at: Date;
  renewed_at: Date;
  host: string;
  pid: number;
}

/**
 * `api_instances`: one lease per running API process (a handful of documents, so listing
 * them all is cheap even where it is a scan). Only the process itself writes its lease.
 */
export class ApiInstances {
  private readonly col: Collection<ApiInstanceDoc>;

  constructor(db: Db) {
    this.col = db.collection<ApiInstanceDoc>('api_instances');
  }

  async ensureIndexes(): Promise<void> {
    // None: the collection is read whole.
  }

  async renew(doc: ApiInstanceDoc): Promise<void> {
    await this.col.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }

  list(): Promise<ApiInstanceDoc[]> {
    return this.col.find({}).toArray();
  }

  async remove(id: string): Promise<void> {
    await this.col.deleteOne({ _id: id });
  }
}

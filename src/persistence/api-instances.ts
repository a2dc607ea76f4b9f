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

/** `api_instances`: one lease per running API process (a handful: a scan is cheap), written only by it. */
export class ApiInstances {
  private readonly col: Collection<ApiInstanceDoc>;

  constructor(db: Db) {
    this.col = db.collection<ApiInstanceDoc>('api_instances');
  }

  async renew(lease: ApiInstanceDoc): Promise<void> {
    await this.col.replaceOne({ _id: lease._id }, lease, { upsert: true });
  }

  list(): Promise<ApiInstanceDoc[]> {
    return this.col.find({}).toArray();
  }

  /** The process's own lease, given up on a graceful stop. */
  async remove(id: string): Promise<void> {
    await this.col.deleteOne({ _id: id });
  }

  /**
   * Crash recovery: removes the lease only while it still expires at `expiresAt` (as read), so a
   * renewed one stays; on FerretDB a renewal racing this command is lost until the next (an upsert).
   */
  async removeIfUnrenewed(id: string, expiresAt: Date): Promise<boolean> {
    return (await this.col.deleteOne({ _id: id, expires_at: expiresAt })).deletedCount === 1;
  }
}

import { Collection, Db } from 'mongodb';

export interface WorkerLoadDoc {
  /** The worker process (its instance id). */
  _id: string;
  /** When it last published: a load older than a few seconds is of a worker that stopped or stalled. */
  at: Date;
  /** The accounts whose deliveries are late in this worker, and how late (ms). */
  lagging: Array<{ account_id: string; lag_ms: number }>;
}

/** Each worker's lagging accounts, rewritten 4 times a second (account-lags.ts); API processes scan them. */
export class WorkerLoads {
  private readonly col: Collection<WorkerLoadDoc>;

  constructor(db: Db) {
    this.col = db.collection<WorkerLoadDoc>('worker_loads');
  }

  async publish(load: WorkerLoadDoc): Promise<void> {
    await this.col.replaceOne({ _id: load._id }, load, { upsert: true });
  }

  publishedSince(since: Date): Promise<WorkerLoadDoc[]> {
    return this.col.find({ at: { $gte: since } }).toArray();
  }

  async remove(workerId: string): Promise<void> {
    await this.col.deleteOne({ _id: workerId });
  }
}

import { ProcessDocs } from './process-docs';

export interface WorkerLoadDoc {
  /** The worker process (its instance id). */
  _id: string;
  /** When it last published: a load older than a few seconds is of a worker that stopped or stalled. */
  at: Date;
  /** The accounts whose deliveries are late in this worker, and how late (ms). */
  lagging: Array<{ account_id: string; lag_ms: number }>;
}

/** Each worker's lagging accounts, rewritten 4 times a second (account-lags.ts); API processes scan them. */
export class WorkerLoads extends ProcessDocs<WorkerLoadDoc>('worker_loads') {
  publishedSince(since: Date): Promise<WorkerLoadDoc[]> {
    return this.list({ at: { $gte: since } });
  }
}

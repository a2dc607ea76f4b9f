import { Collection, Db } from 'mongodb';

export interface DispatchTicketDoc {
  /** A random ticket, also written on the event it guards (`dispatch_ticket`). */
  _id: string;
  created_at: Date;
}

/**
 * `dispatch_queue`: one ticket per ingest that has not finished starting its workflows.
 * The ticket is written before the event and deleted after dispatch, so a crash anywhere
 * in between leaves a ticket for the sweep, and the sweep reads only this small collection
 * instead of scanning every event.
 */
export class DispatchQueue {
  private readonly col: Collection<DispatchTicketDoc>;

  constructor(db: Db) {
    this.col = db.collection<DispatchTicketDoc>('dispatch_queue');
  }

  async ensureIndexes(): Promise<void> {
    await this.col.createIndex({ created_at: 1 });
  }

  async add(ticket: string, at: Date): Promise<void> {
    await this.col.insertOne({ _id: ticket, created_at: at });
  }

  async remove(ticket: string): Promise<void> {
    await this.col.deleteOne({ _id: ticket });
  }

  olderThan(at: Date, limit: number): Promise<DispatchTicketDoc[]> {
    return this.col.find({ created_at: { $lte: at } }).sort({ created_at: 1 }).limit(limit).toArray();
  }
}

import { StoreCollection } from './store-collection';

interface AccountSequenceDoc {
  /** The account id. */
  _id: string;
  /** The account's highest number handed out. */
  seq: number;
}

/** `event_sequences`: each account's counter of event numbers, which orders its event list newest first. */
export class EventSequences extends StoreCollection<AccountSequenceDoc>('event_sequences') {
  async next(accountId: string): Promise<number> {
    const counter = await this.col.findOneAndUpdate({ _id: accountId }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' });
    if (!counter) throw new Error(`the event counter of ${accountId} was not returned`);
    return counter.seq;
  }

  /** The ids of every account with events, for retention (read at once: the purge takes long between them). */
  async accounts(): Promise<string[]> {
    return (await this.col.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
  }
}

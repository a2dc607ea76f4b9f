import { StoreCollection } from './store-collection';

/** An account's events are numbered in blocks: a list page reads a few blocks whatever the history (docs/security.md). */
export const SEQ_BLOCK = 16;
const SEQ_DIGITS = 12;

/** What a list reads: the block's events, by one equality. */
export const blockKey = (accountId: string, block: number): string => `${accountId}#${String(block).padStart(SEQ_DIGITS, '0')}`;
export const blockOf = (seq: number): number => Math.floor(seq / SEQ_BLOCK);

interface AccountSequenceDoc {
  /** The account id. */
  _id: string;
  /** The account's highest number handed out. */
  seq: number;
  /** Retention removed the account's blocks up to this one (absent: none). */
  floor_block?: number;
}

/** `event_sequences`: each account's counter of event numbers, which orders its event list newest first. */
export class EventSequences extends StoreCollection<AccountSequenceDoc>('event_sequences') {
  async next(accountId: string): Promise<number> {
    const counter = await this.col.findOneAndUpdate({ _id: accountId }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' });
    if (!counter) throw new Error(`the event counter of ${accountId} was not returned`);
    return counter.seq;
  }

  /** The account's highest number and the highest block retention removed (-1: none). */
  async bounds(accountId: string): Promise<{ head: number; floor: number }> {
    const counter = await this.col.findOne({ _id: accountId });
    return { head: counter?.seq ?? 0, floor: counter?.floor_block ?? -1 };
  }

  /** The ids of every account with events, for retention (read at once: the purge takes long between them). */
  async accounts(): Promise<string[]> {
    return (await this.col.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
  }

  /** Retention removed the account's blocks up to `block`: they are not read again. */
  async removedThrough(accountId: string, block: number): Promise<void> {
    await this.col.updateOne({ _id: accountId }, { $max: { floor_block: block } });
  }
}

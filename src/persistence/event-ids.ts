import { StoreCollection } from './store-collection';

/** Ids a process reserves with one store write: a busy process pays for its ids once per block, not once per event. */
export const ID_BLOCK = 1_000;
interface CounterDoc {
  _id: 'event_ids';
  /** The highest id reserved by any process. */
  next: number;
}

/**
 * The platform's one id counter. Each process hands out the ids of the block it last reserved, in order: ids are positive,
 * unique across processes and increasing within each (not across them: another process may hold a lower block).
 */
export class EventIds extends StoreCollection<CounterDoc>('event_ids') {
  private next = 1;
  private end = 0;
  /** The reservation under way: every id wanted meanwhile waits for it, so one `$inc` serves them all. */
  private reserving: Promise<void> | null = null;

  async take(): Promise<number> {
    while (this.next > this.end) {
      this.reserving ??= this.reserve().finally(() => (this.reserving = null));
      await this.reserving;
    }
    return this.next++;
  }

  private async reserve(): Promise<void> {
    const counter = await this.col.findOneAndUpdate({ _id: 'event_ids' }, { $inc: { next: ID_BLOCK } }, { upsert: true, returnDocument: 'after' });
    if (!counter) throw new Error('the event id counter was not returned');
    this.next = counter.next - ID_BLOCK + 1;
    this.end = counter.next;
  }
}

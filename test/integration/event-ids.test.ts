import type { Db } from 'mongodb';
import { ID_BLOCK } from '../../src/persistence/event-ids';
import { Events, NewEvent } from '../../src/persistence/events';
import { counting, named, openCountedDb, StoreCommand } from '../support/counted-db';
import type { EventWriterJob, EventWriterResult } from '../support/event-writer';
import { runWritersTogether } from '../support/store-writers';

/**
 * Event ids (CONTRACT §4: positive, increasing, unique across the platform) and each account's event numbers,
 * handed out to API processes that each have their own `Events`, on the real store.
 */
describe('event ids and numbers across API processes', () => {
  let store: Awaited<ReturnType<typeof openCountedDb>>;
  let db: Db;
  let commands: StoreCommand[];

  beforeEach(async () => {
    store = await openCountedDb('event_ids');
    ({ db, commands } = store);
  });
  afterEach(async () => {
    await store?.close();
  });

  const event = (i: number, account_id = 'acct_event_ids'): NewEvent => ({
    account_id,
    type: 'id.test',
    data: { i },
    timestamp: Math.floor(Date.now() / 1000),
    idempotency_key: null,
    endpoint_ids: [],
    endpoint_urls: [],
    created_at: new Date(),
  });
  const insert = (events: Events, i: number, account?: string) => events.insertWithNextId(event(i, account), (id) => JSON.stringify({ id, i }));

  it('two processes storing 150 events each at once, 10 at a time, for the same accounts: no id twice, every event stored, no number lost or twice', async () => {
    const accounts = ['acct_ids_a', 'acct_ids_b', 'acct_ids_c'];
    const jobs: EventWriterJob[] = ['a', 'b'].map((name) => ({ uri: process.env.MONGODB_URI!, db: db.databaseName, name, accounts, count: 150, concurrency: 10 }));
    const [a, b] = await runWritersTogether<EventWriterResult, EventWriterJob>(jobs, 'event-writer.ts');
    const ids = [...a.ids, ...b.ids];
    expect(new Set(ids).size).toBe(300);
    expect(ids.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
    // Each process took its ids from the one block it reserved, in order.
    for (const own of [a.ids, b.ids]) {
      const sorted = [...own].sort((x, y) => x - y);
      expect(sorted).toEqual(Array.from({ length: 150 }, (_, i) => sorted[0] + i));
    }
    const stored = await db.collection<{ _id: string; account_id: string; seq: number }>('events').find({}, { projection: { account_id: 1, seq: 1 } }).toArray();
    expect(stored.map((d) => Number(d._id)).sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    for (const account of accounts) {
      const numbers = stored.filter((d) => d.account_id === account).map((d) => d.seq).sort((x, y) => x - y);
      expect(numbers).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    }
  }, 120_000);

  it(`a process pays one store write per ${ID_BLOCK} ids, and its concurrent first inserts share that one write`, async () => {
    const events = new Events(db);
    const first = await counting(commands, () => Promise.all(Array.from({ length: 20 }, (_, i) => insert(events, i))));
    expect(named(first.sent, 'findAndModify', 'event_ids')).toBe(1);
    const more = await counting(commands, async () => {
      for (let i = 20; i < 120; i++) await insert(events, i);
    });
    expect(named(more.sent, 'findAndModify', 'event_ids')).toBe(0);
    expect(named(more.sent, 'insert', 'events')).toBe(100);
    expect(first.result.map((e) => e._id).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  }, 60_000);

  it("a process's ids increase, and one started later (a restart) gets ids above every earlier process's block", async () => {
    const earlier = new Events(db);
    const taken = [];
    for (let i = 0; i < 5; i++) taken.push((await insert(earlier, i))._id);
    expect(taken).toEqual([...taken].sort((x, y) => x - y));
    // Events deleted later (an ingest that lost its idempotency key, retention): their ids stay taken.
    for (const id of taken) await earlier.delete(id);
    const later = await insert(new Events(db), 5);
    expect(later._id).toBeGreaterThan(ID_BLOCK);
  });
});

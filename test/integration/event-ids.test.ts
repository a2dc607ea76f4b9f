import type { Db } from 'mongodb';
import { Events, NewEvent } from '../../src/persistence/events';
import { counting, named, openCountedDb, StoreCommand } from '../support/counted-db';

/**
 * Event ids (CONTRACT §4: positive, increasing, unique across the platform) handed out to
 * several API processes, each with its own `Events`, on the real store: what each id costs.
 */
describe('event ids across API processes', () => {
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

  const event = (i: number, created_at = new Date()): NewEvent => ({
    account_id: 'acct_event_ids',
    type: 'id.test',
    data: { i, padding: 'x'.repeat(2_000) },
    timestamp: Math.floor(created_at.getTime() / 1000),
    idempotency_key: null,
    endpoint_ids: [],
    endpoint_urls: [],
    owner: null,
    created_at,
  });
  const insert = (events: Events, i: number) => events.insertWithNextId(event(i), (id) => JSON.stringify({ id, i }));

  it('a process that sat idle while another made 1,000 events stores its next one with at most 3 inserts, none of them a probe with a body', async () => {
    const busy = new Events(db);
    const idle = new Events(db);
    await insert(idle, -1);
    const made = await counting(commands, async () => {
      for (let i = 0; i < 1_000; i++) await insert(busy, i);
    });
    // One small claim and the event itself, each once.
    expect(named(made.sent, 'insert', 'events')).toBe(1_000);
    expect(named(made.sent, 'insert')).toBeLessThanOrEqual(2 * 1_000);

    const next = await counting(commands, () => insert(idle, 1_000));
    expect(next.result._id).toBe(1_002);
    // Its stale claim fails, the head is found by `_id` lookups of claims (8 at once, then a gallop), the next claim and the event.
    expect(named(next.sent, 'insert')).toBeLessThanOrEqual(3);
    expect(named(next.sent, 'insert', 'events')).toBe(1);
    expect(named(next.sent, 'find')).toBeLessThanOrEqual(8 + 2 * Math.ceil(Math.log2(1_000)) + 4);
    expect(named(next.sent, 'find', 'events')).toBe(0);
  }, 120_000);

  it('an id handed out after events were deleted is larger than every earlier id', async () => {
    const first = new Events(db);
    const second = new Events(db);
    const earlier = [(await insert(second, 0))._id];
    for (let i = 1; i <= 5; i++) earlier.push((await insert(first, i))._id);
    // Events deleted later (an ingest that lost its idempotency key, crash recovery): their ids stay taken.
    for (const id of earlier.slice(1)) await first.delete(id);

    const later = await insert(second, 6);
    expect(later._id).toBeGreaterThan(Math.max(...earlier));
  });

  it('concurrent inserts through two processes get distinct ids, each event stored once', async () => {
    const [a, b] = [new Events(db), new Events(db)];
    const made = await Promise.all(Array.from({ length: 40 }, (_, i) => insert(i % 2 ? a : b, i)));
    const ids = made.map((e) => e._id);
    expect(new Set(ids).size).toBe(40);
    expect(await db.collection('events').countDocuments()).toBe(40);
    expect(Math.max(...ids)).toBe(await new Events(db).ids.head());
  });

  it("a process's concurrent inserts that lose their ids to another process at once share one search for the head", async () => {
    const behind = new Events(db);
    const ahead = new Events(db);
    await insert(behind, -1);
    for (let i = 0; i < 200; i++) await insert(ahead, i);
    // Twenty inserts at once from the process that is behind: each claim loses (ids 2 to 21 are taken).
    const { result, sent } = await counting(commands, () => Promise.all(Array.from({ length: 20 }, (_, i) => insert(behind, 1_000 + i))));
    expect(result.map((e) => e._id).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => 202 + i));
    // One search from id 2 to the head (201): 8 lookups at once, then about 2·log2(200) galloping, not one search per insert.
    expect(named(sent, 'find', 'event_ids')).toBeLessThanOrEqual(8 + 2 * Math.ceil(Math.log2(200)) + 4);
  }, 60_000);

  it('the highest id is found without reading the events: a few `_id` lookups of small claims', async () => {
    const writer = new Events(db);
    for (let i = 0; i < 300; i++) await insert(writer, i);

    const restarted = new Events(db);
    const { result, sent } = await counting(commands, () => restarted.ids.head());
    expect(result).toBe(300);
    expect(sent.filter((c) => c.collection === 'events')).toEqual([]);
    expect(named(sent, 'find', 'event_ids')).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(300)) + 4);
  }, 60_000);
});

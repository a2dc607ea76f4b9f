import type { CommandStartedEvent, Db } from 'mongodb';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { Deliveries } from '../../src/persistence/deliveries';
import { EventListPosition, Events, EventSummary, NewEvent } from '../../src/persistence/events';
import { rowsHandedToFerretDb } from '../support/store-rows';
import { openTestDb } from '../support/test-db';

/**
 * An account's event list on the real store: what one call reads does not
 * grow with the account's history, on the embedded store too (rows counted as its patched
 * FerretDB hands them over, test/support/store-rows.ts), and pages still follow each other.
 */
describe("an account's event list", () => {
  let close: () => Promise<void>;
  let db: Db;
  const finds: Array<{ collection: string; filter: unknown; sort?: unknown; limit?: unknown }> = [];
  let eventInserts = 0;

  beforeEach(async () => {
    const opened = await openTestDb('event_list', { monitorCommands: true });
    ({ db, close } = opened);
    finds.length = 0;
    opened.client.on('commandStarted', (e: CommandStartedEvent) => {
      if (e.commandName === 'find') finds.push({ collection: String(e.command.find), filter: e.command.filter, sort: e.command.sort, limit: e.command.limit });
      if (e.commandName === 'insert' && e.command.insert === 'events') eventInserts++;
    });
  });
  afterEach(async () => {
    await close?.();
  });

  const event = (accountId: string, i: number, type = 'list.test'): NewEvent => ({
    account_id: accountId,
    type,
    data: { i },
    timestamp: 0,
    idempotency_key: null,
    endpoint_ids: [],
    endpoint_urls: [],
    owner: null,
    created_at: new Date(),
  });
  const body = (i: number) => (id: number) => JSON.stringify({ id, i, padding: 'x'.repeat(1_000) });
  async function insert(events: Events, accountId: string, n: number, type?: string): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) ids.push((await events.insertWithNextId(event(accountId, i, type), body(i)))._id);
    return ids;
  }
  /** Every page of `want`, following `next`: the ids in order. */
  async function listAll(events: Events, accountId: string, want: number, type?: string): Promise<number[]> {
    const ids: number[] = [];
    let before: EventListPosition | undefined;
    for (let calls = 0; calls < 1_000; calls++) {
      const page: { events: EventSummary[]; next: EventListPosition | null } = await events.list(accountId, { before, want, examineAtMost: 200, type });
      ids.push(...page.events.map((e) => e._id));
      if (!page.next) return ids;
      before = page.next;
    }
    throw new Error('the list never ended');
  }
  /** The rows each `find` on events since `from` made the embedded store hand FerretDB. */
  const rowsSince = (from: number) => Promise.all(finds.slice(from).filter((f) => f.collection === 'events').map((f) => rowsHandedToFerretDb(db, 'events', f.filter, f)));

  it('a first page reads as many events with 40 events in the account as with 400', async () => {
    const events = new Events(db);
    await events.ensureIndexes();
    await insert(events, 'acct_other', 40);
    const rowsOfFirstPage = async () => {
      const from = finds.length;
      const page = await events.list('acct_big', { want: 21, examineAtMost: 200 });
      expect(page.events).toHaveLength(21);
      return rowsSince(from);
    };
    await insert(events, 'acct_big', 40);
    const small = await rowsOfFirstPage();
    await insert(events, 'acct_big', 360);
    const large = await rowsOfFirstPage();
    expect(small).toEqual([21]);
    expect(large).toEqual([21]);
  }, 120_000);

  it('walks the account\'s events newest first by an index on {account_id, seq}, stopping at the page', async () => {
    const events = new Events(db);
    await events.ensureIndexes();
    await insert(events, 'acct_plan', 3);
    await events.list('acct_plan', { want: 2, examineAtMost: 200 });
    const read = finds.filter((f) => f.collection === 'events').at(-1);
    const explained = await db.command({ explain: { find: 'events', filter: read?.filter, sort: read?.sort, limit: read?.limit }, verbosity: 'queryPlanner' });
    const plan = JSON.stringify(explained.queryPlanner);
    expect(plan).toMatch(/USING INDEX \S+ \(<expr>=\? AND <expr><\?\)|IXSCAN/);
    expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY|"stage":"SORT"|\bSCAN events|COLLSCAN/);
  });

  it("reads an event by an index search on its integer `_id`, also among many", async () => {
    const events = new Events(db);
    await events.ensureIndexes();
    const [, id] = await insert(events, 'acct_by_id', 3);
    const explained = await db.command({ explain: { find: 'events', filter: { _id: id } }, verbosity: 'queryPlanner' });
    const plan = JSON.stringify(explained.queryPlanner);
    expect(plan).toMatch(/USING INDEX|IDHACK|IXSCAN|EXPRESS/);
    expect(plan).not.toMatch(/\bSCAN events\b(?! USING)|COLLSCAN/);
    expect((await events.findUnscoped(id))?._id).toBe(id);
  });

  it('pages follow each other newest first, every event once', async () => {
    const events = new Events(db);
    await events.ensureIndexes();
    const ids = await insert(events, 'acct_pages', 53);
    await insert(events, 'acct_neighbour', 5);
    expect(await listAll(events, 'acct_pages', 7)).toEqual([...ids].reverse());
    expect(await listAll(events, 'acct_pages', 100)).toEqual([...ids].reverse());
  });

  it('a type filter examines at most what it is allowed and says where to continue', async () => {
    const events = new Events(db);
    await events.ensureIndexes();
    const [rare] = await insert(events, 'acct_types', 1, 'rare.type');
    await insert(events, 'acct_types', 60);
    const first = await events.list('acct_types', { want: 10, examineAtMost: 20, type: 'rare.type' });
    expect(first.events).toEqual([]);
    expect(first.next).not.toBeNull();
    expect(await listAll(events, 'acct_types', 10, 'rare.type')).toEqual([rare]);
  });

  it('two processes numbering one account at once never share a number, none is refused, and every event is listed once, in number order', async () => {
    const a = new Events(db);
    const b = new Events(db);
    await a.ensureIndexes();
    const insertsBefore = eventInserts;
    const ids = (await Promise.all([...Array.from({ length: 4 }, () => insert(a, 'acct_two', 5)), ...Array.from({ length: 4 }, () => insert(b, 'acct_two', 5))])).flat();
    expect(eventInserts - insertsBefore).toBe(40);
    const stored = await db.collection('events').find({ account_id: 'acct_two' }).toArray();
    expect(stored.map((d) => d.seq as number).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const bySeq = stored.sort((x, y) => y.seq - x.seq).map((d) => Number(d._id));
    const findsBefore = finds.length;
    expect(await listAll(b, 'acct_two', 9)).toEqual(bySeq);
    expect(new Set(ids)).toEqual(new Set(bySeq));
    // Each page of 9: one read of the account's events.
    expect(finds.slice(findsBefore).map((f) => f.collection)).toEqual(Array(5).fill('events'));
  });

  it('steps over numbers whose events were deleted unacknowledged (a lost idempotency key)', async () => {
    const events = new Events(db);
    await events.ensureIndexes();
    const ids = await insert(events, 'acct_holes', 64);
    const deleted = ids.slice(13, 50);
    for (const id of deleted) await events.delete(id);
    expect(await listAll(events, 'acct_holes', 5)).toEqual(ids.filter((id) => !deleted.includes(id)).reverse());
  });
});

describe("the statuses of a page's deliveries", () => {
  let close: () => Promise<void>;
  let db: Db;
  beforeEach(async () => {
    ({ db, close } = await openTestDb('event_list_statuses'));
  });
  afterEach(async () => {
    await close?.();
  });

  it("read only the account's records of the page's events, by an index search", async () => {
    const deliveries = new Deliveries(db);
    await deliveries.ensureIndexes();
    const write = (accountId: string, eventId: number, status: 'succeeded' | 'failed', endpointId = 'ep_1') =>
      deliveries.setState({ id: deliveryId(eventId, endpointId), account_id: accountId, event_id: eventId, endpoint_id: endpointId }, { round: 1, status, attempt_count: 1, next_attempt_at: null }, new Date());
    for (let eventId = 100; eventId < 300; eventId++) await write('acct_s', eventId, 'succeeded');
    await write('acct_s', 290, 'failed');
    await write('acct_neighbour', 291, 'succeeded', 'ep_2');

    const statuses = await deliveries.statusesOf('acct_s', [290, 291], [deliveryId(290, 'ep_1'), deliveryId(291, 'ep_2')]);
    // Another account's record is not this account's, even under an id asked for.
    expect(Object.fromEntries(statuses)).toEqual({ [deliveryId(290, 'ep_1')]: 'failed' });
    // The statuses' query: the 2 records of this account's events 290 and 291, not its 200, from the index.
    const filter = { account_id: 'acct_s', event_id: { $in: [290, 291] } };
    expect(await rowsHandedToFerretDb(db, 'deliveries', filter)).toBe(2);
    const explained = await db.command({ explain: { find: 'deliveries', filter }, verbosity: 'queryPlanner' });
    const plan = JSON.stringify(explained.queryPlanner);
    expect(plan).toMatch(/USING INDEX \S+ \(<expr>=\? AND <expr>=\?\)|IXSCAN/);
    expect(plan).not.toMatch(/\bSCAN deliveries|COLLSCAN/);
  });
});

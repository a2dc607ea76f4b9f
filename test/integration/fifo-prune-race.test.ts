import type { Db } from 'mongodb';
import { FifoQueues } from '../../src/persistence/fifo-queues';
import { holdMethod } from '../support/gate';
import { openTestDb } from '../support/test-db';

/**
 * Pruning a FIFO queue (docs/fifo-endpoints.md "What is kept") on the real store, racing a take held
 * between its read of the floor and its insert, and a search for the head held partway up the
 * places, while a prune deletes the places up to a floor past them. A prune comes only with event
 * retention, days after the places it passes were taken (`later`).
 */
describe('FIFO queue pruning races', () => {
  const ENDPOINT = 'ep_prune_race';
  const at = new Date('2026-11-26T00:00:00Z');
  const later = new Date(at.getTime() + 9 * 86_400_000);
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;

  beforeEach(async () => {
    store = await openTestDb('fifo_prune_race');
    db = store.db;
  });
  afterEach(async () => {
    await store?.close();
  });

  const kept = async (collection: string) => (await db.collection<{ _id: string }>(collection).find({}).toArray()).map((d) => d._id).sort();
  const nobodyPassesOver = () => Promise.resolve(false);

  it('a take held before its insert while a prune deletes its number gets a place above the floor, shared with no event', async () => {
    const first = new FifoQueues(db);
    const places = new Map<number, number>();
    for (const eventId of [101, 102, 103]) places.set(eventId, await first.take(ENDPOINT, eventId, at));
    for (const n of places.values()) await first.leave(ENDPOINT, n, at);
    expect(await first.head(ENDPOINT, nobodyPassesOver, at)).toBeNull();

    // A process that has taken no place of this queue yet: its push starts from the floor it knows, 0.
    const cold = new FifoQueues(db);
    const gate = holdMethod(cold['places'], 'appendAt', { when: (scope) => scope === ENDPOINT });
    let taking: Promise<number>;
    try {
      taking = cold.take(ENDPOINT, 104, at);
      await gate.reached;
      expect(await first.prune(ENDPOINT, 3, at, 1)).toBe(3);
      expect(await kept('fifo_places')).toEqual([]);
    } finally {
      gate.open();
      gate.restore();
    }
    places.set(104, await taking);
    places.set(105, await first.take(ENDPOINT, 105, at));

    expect([...places.values()]).toEqual([1, 2, 3, 4, 5]);
    expect(await kept('fifo_places')).toEqual([`${ENDPOINT}#4`, `${ENDPOINT}#5`]);
    expect(await cold.head(ENDPOINT, nobodyPassesOver, at)).toMatchObject({ n: 4, eventId: 104 });
    await cold.leave(ENDPOINT, 4, at);
    expect(await first.head(ENDPOINT, nobodyPassesOver, at)).toMatchObject({ n: 5, eventId: 105 });
  });

  it('a search for the head held partway while a prune deletes the places it has yet to read still finds the head', async () => {
    const queues = new FifoQueues(db);
    for (const eventId of [301, 302, 303, 304, 305]) await queues.take(ENDPOINT, eventId, at);
    for (const n of [1, 2, 3]) await queues.leave(ENDPOINT, n, at);

    // Another process, whose search starts from the mark as it was (nothing left yet) and is held at place 2.
    const searching = new FifoQueues(db);
    const gate = holdMethod(searching, 'hasLeft', { when: (_endpointId, n) => n === 2 });
    let found: ReturnType<FifoQueues['head']>;
    try {
      found = searching.head(ENDPOINT, nobodyPassesOver, at);
      await gate.reached;
      expect(await queues.head(ENDPOINT, nobodyPassesOver, at)).toMatchObject({ n: 4, eventId: 304 });
      expect(await queues.prune(ENDPOINT, 3, at, 1)).toBe(3);
    } finally {
      gate.open();
      gate.restore();
    }
    expect(await found).toMatchObject({ n: 4, eventId: 304 });
  });

  it('a leave of a place at or below the floor, coming after the prune, leaves nothing kept', async () => {
    const queues = new FifoQueues(db);
    for (const eventId of [201, 202]) await queues.leave(ENDPOINT, await queues.take(ENDPOINT, eventId, at), at);
    await queues.head(ENDPOINT, nobodyPassesOver, at);
    expect(await queues.prune(ENDPOINT, 2, at, 1)).toBe(2);

    await new FifoQueues(db).leave(ENDPOINT, 1, at);
    expect(await kept('fifo_left')).toEqual([]);
  });

  it('a leave repeated after the prune, of a place taken days before, leaves nothing kept', async () => {
    const queues = new FifoQueues(db);
    for (const eventId of [211, 212]) await queues.leave(ENDPOINT, await queues.take(ENDPOINT, eventId, at), at, at);
    await queues.head(ENDPOINT, nobodyPassesOver, at);
    expect(await queues.prune(ENDPOINT, 2, later, 1)).toBe(2);

    await new FifoQueues(db).leave(ENDPOINT, 1, later, at);
    expect(await kept('fifo_left')).toEqual([]);
  });

  it('a take by a process whose last place of the queue was taken days before, since pruned past, gets a place above the floor', async () => {
    const stale = new FifoQueues(db);
    const other = new FifoQueues(db);
    expect(await stale.take(ENDPOINT, 401, at)).toBe(1);
    for (const eventId of [402, 403]) await other.take(ENDPOINT, eventId, at);
    for (const n of [1, 2, 3]) await other.leave(ENDPOINT, n, at, at);
    await other.head(ENDPOINT, nobodyPassesOver, at);
    expect(await other.prune(ENDPOINT, 3, later, 1)).toBe(3);

    // Its push starts from place 1, the last it saw: place 2 is free again, but below the floor.
    expect(await stale.take(ENDPOINT, 404, later)).toBe(4);
    expect(await kept('fifo_places')).toEqual([`${ENDPOINT}#4`]);
  });

  it('a process that took a place lately takes the next, and leaves a place taken lately, without reading the floor', async () => {
    const queues = new FifoQueues(db);
    const first = await queues.take(ENDPOINT, 501, at);
    const floorReads = jest.spyOn(queues['floors'], 'head');
    try {
      expect(await queues.take(ENDPOINT, 502, at)).toBe(first + 1);
      await queues.leave(ENDPOINT, first, at, at);
      expect(floorReads).not.toHaveBeenCalled();
    } finally {
      floorReads.mockRestore();
    }
  });
});

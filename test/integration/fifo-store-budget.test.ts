import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { Deliveries } from '../../src/persistence/deliveries';
import { Events } from '../../src/persistence/events';
import { FifoQueues } from '../../src/persistence/fifo-queues';
import { FifoTurns } from '../../src/services/fifo-turns';
import { counting, openCountedDb, type StoreCommand } from '../support/counted-db';

/**
 * docs/embedded-store.md "Store budget", the FIFO rows: the round trips a place, a turn and a leave
 * make on the real store, counted with MongoDB command monitoring.
 */
describe('store budget of a FIFO queue', () => {
  const ENDPOINT = 'ep_fifo_budget';
  let store: Awaited<ReturnType<typeof openCountedDb>>;
  let events: Events;
  let turns: FifoTurns;
  const woken: string[] = [];

  beforeAll(async () => {
    store = await openCountedDb('fifo_store_budget');
    events = new Events(store.db);
    turns = new FifoTurns({ queues: new FifoQueues(store.db), events, deliveries: new Deliveries(store.db), wake: async (id) => void woken.push(id), clock: () => new Date() });
  });
  afterAll(() => store?.close());

  const summary = (sent: StoreCommand[]) => sent.filter((c) => c.collection.startsWith('fifo_') || c.collection === 'events' || c.collection === 'deliveries').map((c) => `${c.name} ${c.collection}`);
  const ingest = () =>
    events.insertWithNextId(
      { account_id: 'acct_budget', type: 'a.b', data: {}, timestamp: 1, idempotency_key: null, endpoint_ids: [ENDPOINT], endpoint_urls: ['https://example.com'], owner: null, created_at: new Date() },
      (id) => JSON.stringify({ id }),
      undefined,
      (id) => turns.placesFor([ENDPOINT], id),
    );

  it('a place: one $inc of the queue and the insert of its record; a turn at the head: the event and the queue; its end, nobody behind: one conditional update', async () => {
    const place = await counting(store.commands, () => turns.placesFor([ENDPOINT], 1_000_001));
    expect(summary(place.sent)).toEqual(['findAndModify fifo_queues', 'insert fifo_places']);

    const first = await ingest();
    const turn = await counting(store.commands, () => turns.turnOf(first._id, ENDPOINT));
    // Place 1 (no event stored, just taken) holds the head: the look reads its record and its delivery, and waits.
    expect(turn.result).toEqual({ place: 2, now: false });
    expect(summary(turn.sent)).toEqual(['find events', 'find fifo_queues', 'find fifo_places', 'find deliveries']);

    const leaveOfPlace1 = await counting(store.commands, () => turns.leave(1_000_001, ENDPOINT, 1));
    expect(summary(leaveOfPlace1.sent)).toEqual(['findAndModify fifo_queues', 'find fifo_places', 'find deliveries']);
    expect(woken).toEqual([deliveryId(first._id, ENDPOINT)]);

    const atHead = await counting(store.commands, () => turns.turnOf(first._id, ENDPOINT));
    expect(atHead.result).toEqual({ place: 2, now: true });
    expect(summary(atHead.sent)).toEqual(['find events', 'find fifo_queues']);

    const end = await counting(store.commands, () => turns.leave(first._id, ENDPOINT, 2));
    expect(summary(end.sent)).toEqual(['findAndModify fifo_queues']);
  });

  it('a turn given its place as taken (sealed in its input): none when taken at the head, else the queue only', async () => {
    const queue = 'ep_fifo_budget_taken';
    const atHead = (await turns.placesFor([queue], 2_000_001))[queue];
    const behind = (await turns.placesFor([queue], 2_000_002))[queue];
    expect([atHead, behind]).toEqual([{ n: 1, head: 1 }, { n: 2, head: 1 }]);

    const first = await counting(store.commands, () => turns.turnOf(2_000_001, queue, atHead));
    expect(first.result).toEqual({ place: 1, now: true });
    expect(summary(first.sent)).toEqual([]);

    const second = await counting(store.commands, () => turns.turnOf(2_000_002, queue, behind));
    expect(second.result).toEqual({ place: 2, now: false });
    expect(summary(second.sent)).toEqual(['find fifo_queues', 'find fifo_places', 'find deliveries']);
  });
});

import type { Db } from 'mongodb';
import { Events, NewEvent, ownerTag } from '../../src/persistence/events';
import { EventsAwaitingHandOver } from '../../src/persistence/events-awaiting-hand-over';
import { holdMethod } from '../support/gate';
import { openTestDb } from '../support/test-db';

/**
 * An accepting process's lease records which hand-over batches it has handed over; crash recovery reads the batches
 * above that. So an event must count as awaiting hand-over, in the batch it is stored with, from before its insert is
 * sent until the outbox lets it go, on the real store.
 */
describe('events awaiting hand-over', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('awaiting_hand_over');
    db = store.db;
  });
  afterAll(() => store.close());

  const event = (): NewEvent => ({
    account_id: 'acct_awaiting',
    type: 'awaiting.test',
    data: {},
    timestamp: Math.floor(Date.now() / 1000),
    idempotency_key: null,
    endpoint_ids: [],
    endpoint_urls: [],
    created_at: new Date(),
  });
  const body = (id: number) => JSON.stringify({ id });

  it('an event awaits hand-over in its batch from before its insert is sent until it is let go, and recovery finds it by its batch', async () => {
    const events = new Events(db);
    await events.ensureIndexes();
    const awaiting = new EventsAwaitingHandOver();
    awaiting.openBatch(7);
    const gate = holdMethod(events.sequences, 'next');
    try {
      const inserting = events.insertWithNextId(event(), body, { instanceId: 'api_accepting', awaiting });
      await gate.reached;
      expect(awaiting.size).toBe(1);
      // A renewal now opens the next batch; this event stays in 7.
      awaiting.openBatch(8);
      expect(awaiting.handedOverThrough()).toBe(6);
      gate.open();
      const stored = await inserting;
      expect(stored.owner).toBe(ownerTag('api_accepting', 7));
      expect((await events.owedBy(ownerTag('api_accepting', 7))).map((e) => e._id)).toEqual([stored._id]);
      expect(await events.owedBy(ownerTag('api_accepting', 8))).toEqual([]);
      expect(awaiting.handedOverThrough()).toBe(6);
      awaiting.leave(stored._id);
      // The current batch stays open: an ingest may still enter it.
      expect(awaiting.handedOverThrough()).toBe(7);
    } finally {
      gate.restore();
    }
  });

  it('an insert that fails before it is sent lets its event go', async () => {
    const events = new Events(db);
    const awaiting = new EventsAwaitingHandOver();
    const next = events.sequences.next.bind(events.sequences);
    events.sequences.next = async () => {
      throw new Error('connection reset before the reply');
    };
    try {
      await expect(events.insertWithNextId(event(), body, { instanceId: 'api_accepting', awaiting })).rejects.toThrow('connection reset');
    } finally {
      events.sequences.next = next;
    }
    expect(awaiting.size).toBe(0);
    expect(awaiting.handedOverThrough()).toBe(0);
  });
});

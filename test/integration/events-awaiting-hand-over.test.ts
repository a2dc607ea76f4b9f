import type { Db } from 'mongodb';
import { Events, NewEvent } from '../../src/persistence/events';
import { EventsAwaitingHandOver } from '../../src/persistence/events-awaiting-hand-over';
import { holdMethod } from '../support/gate';
import { openTestDb } from '../support/test-db';

/**
 * An accepting process's lease records how far it has handed its events over; crash recovery
 * looks only above that. So an event must count as awaiting hand-over from before its id is
 * claimed (it may be stored from then on) until the outbox lets it go, on the real store.
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
  const EVERY_ID = Number.MAX_SAFE_INTEGER;

  it('an id awaits hand-over from before its claim is sent until it is let go, and the event names the accepting process', async () => {
    const events = new Events(db);
    const awaiting = new EventsAwaitingHandOver();
    const gate = holdMethod(events.ids, 'claim');
    try {
      const inserting = events.insertWithNextId(event(), body, { instanceId: 'api_accepting', awaiting });
      await gate.reached;
      expect(awaiting.size).toBe(1);
      const heldBelow = awaiting.handedOverThrough(EVERY_ID);
      gate.open();
      const stored = await inserting;
      expect(heldBelow).toBe(stored._id - 1);
      expect(stored.owner).toBe('api_accepting');
      expect((await events.findUnscoped(stored._id))?.owner).toBe('api_accepting');
      expect(awaiting.handedOverThrough(EVERY_ID)).toBe(stored._id - 1);
      awaiting.leave(stored._id);
      expect(awaiting.handedOverThrough(stored._id)).toBe(stored._id);
    } finally {
      gate.restore();
    }
  });

  it('an insert that fails lets its id go', async () => {
    const events = new Events(db);
    const awaiting = new EventsAwaitingHandOver();
    const claim = events.ids.claim.bind(events.ids);
    events.ids.claim = async () => {
      throw new Error('connection reset before the reply');
    };
    try {
      await expect(events.insertWithNextId(event(), body, { instanceId: 'api_accepting', awaiting })).rejects.toThrow('connection reset');
    } finally {
      events.ids.claim = claim;
    }
    expect(awaiting.size).toBe(0);
    expect(awaiting.handedOverThrough(41)).toBe(41);
  });
});

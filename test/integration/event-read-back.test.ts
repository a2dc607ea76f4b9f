import type { Db } from 'mongodb';
import { Events, NewEvent } from '../../src/persistence/events';
import { openTestDb } from '../support/test-db';

/** An event read back from the real store is the event that was stored, nothing more. */
describe('an event read back', () => {
  let close: () => Promise<void>;
  let db: Db;

  beforeEach(async () => {
    ({ db, close } = await openTestDb('event_read_back'));
  });
  afterEach(async () => {
    await close?.();
  });

  const event: NewEvent = {
    account_id: 'acct_read_back',
    type: 'read.back',
    data: { a: 1 },
    timestamp: 0,
    idempotency_key: 'key-1',
    endpoint_ids: ['ep_1'],
    endpoint_urls: ['https://127.0.0.1/hook'],
    owner: null,
    created_at: new Date(),
    fifo_places: { ep_1: 3 },
    traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  };
  const body = (id: number) => JSON.stringify({ id, data: event.data });

  it('equals the event as inserted, its traceparent kept', async () => {
    const events = new Events(db);
    const stored = await events.insertWithNextId(event, body);
    expect(await events.find('acct_read_back', stored._id)).toStrictEqual(stored);
  });

  it('carries no storage-only field, even one it does not know of', async () => {
    const events = new Events(db);
    const stored = await events.insertWithNextId(event, body);
    await db.collection('events').updateMany({}, { $set: { stored_only: true } });
    const read = await events.findUnscoped(stored._id);
    expect(Object.keys(read ?? {}).sort()).toEqual(Object.keys(stored).sort());
  });
});

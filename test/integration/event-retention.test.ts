import type { Db } from 'mongodb';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { createLogger } from '../../src/infra/logger';
import { Deliveries, roundClaimId } from '../../src/persistence/deliveries';
import { Events } from '../../src/persistence/events';
import { FifoQueues } from '../../src/persistence/fifo-queues';
import { IdempotencyRecords } from '../../src/persistence/idempotency-records';
import { EventRetention } from '../../src/services/event-retention';
import { FifoTurns } from '../../src/services/fifo-turns';
import { idempotencyRecordFor } from '../../src/services/key-settlement';
import { openTestDb } from '../support/test-db';

const DAY = 86_400_000;
const RETENTION_MS = 30 * DAY;

/** Event retention (docs/operating.md "Event retention"), on the real store, with a clock the test moves. */
describe('event retention', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  let now: number;
  let events: Events;
  let deliveries: Deliveries;
  let idempotency: IdempotencyRecords;
  let retention: EventRetention;

  beforeEach(async () => {
    store = await openTestDb('event_retention');
    db = store.db;
    now = Date.parse('2026-06-01T00:00:00Z');
    events = new Events(db);
    deliveries = new Deliveries(db);
    idempotency = new IdempotencyRecords(db);
    const fifo = { forget: async () => undefined };
    retention = new EventRetention({ events, deliveries, idempotency, fifo, retentionMs: RETENTION_MS, logger: createLogger('silent'), clock: () => new Date(now) });
  });
  afterEach(async () => {
    await store?.close();
  });

  /** An event ingested `ageDays` ago with an idempotency key, one attempted delivery and a manual retry's round claim. */
  async function ingest(ageDays: number, key: string) {
    const created_at = new Date(now - ageDays * DAY);
    const event = await events.insertWithNextId(
      {
        account_id: 'acct_retention',
        type: 'retention.test',
        data: { key },
        timestamp: Math.floor(created_at.getTime() / 1000),
        idempotency_key: key,
        endpoint_ids: ['ep_retention'],
        endpoint_urls: ['https://example.com/hook'],
        owner: null,
        created_at,
      },
      (id) => JSON.stringify({ id, key }),
    );
    await idempotency.claim(idempotencyRecordFor(event), () => created_at);
    const id = deliveryId(event._id, 'ep_retention');
    const ref = { id, account_id: 'acct_retention', event_id: event._id, endpoint_id: 'ep_retention' };
    const attempt = { round: 1, attempt: 1, started_at: created_at, duration_ms: 5, status_code: 500, error: null, response_body: 'no', succeeded: false };
    await deliveries.recordAttempt(ref, attempt, { round: 1, status: 'failed', attempt_count: 1, next_attempt_at: null, url: 'https://example.com/hook' }, created_at);
    await deliveries.claimRound(id, 2, created_at);
    return { id: event._id, key, delivery: id };
  }

  async function kept(e: { id: number; key: string; delivery: string }) {
    return {
      event: (await events.findUnscoped(e.id)) !== null,
      delivery: (await deliveries.find(e.delivery)) !== null,
      round: (await db.collection('delivery_rounds').countDocuments({ _id: roundClaimId(e.delivery, 2) as never })) === 1,
      idempotency: (await idempotency.find({ issuer: 'account', accountId: 'acct_retention' }, e.key)) !== null,
    };
  }

  it('removes events older than the retention with their deliveries, round claims and idempotency records, and keeps the young', async () => {
    const old = [await ingest(45, 'old-1'), await ingest(31, 'old-2')];
    const young = [await ingest(29, 'young-1'), await ingest(1, 'young-2')];

    expect(await retention.purge()).toBe(2);

    for (const e of old) expect(await kept(e)).toEqual({ event: false, delivery: false, round: false, idempotency: false });
    for (const e of young) expect(await kept(e)).toEqual({ event: true, delivery: true, round: true, idempotency: true });
  });

  it('a second purge starts where the first stopped and removes what has aged since', async () => {
    const first = await ingest(40, 'a');
    const second = await ingest(20, 'b');
    expect(await retention.purge()).toBe(1);
    expect(await retention.purge()).toBe(0);

    now += 11 * DAY;
    expect(await retention.purge()).toBe(1);
    expect((await kept(first)).event).toBe(false);
    expect(await kept(second)).toEqual({ event: false, delivery: false, round: false, idempotency: false });
  });

  it('after every event of an account was purged, its new events get higher ids and numbers and are listed', async () => {
    const gone = [await ingest(60, 'x'), await ingest(50, 'y')];
    now += 40 * DAY;
    expect(await retention.purge()).toBe(2);
    const body = (id: number) => JSON.stringify({ id });
    const later = await new Events(db).insertWithNextId(blank(now), body);
    expect(later._id).toBeGreaterThan(Math.max(...gone.map((e) => e.id)));
    expect((await events.list('acct_retention', { want: 10, examineAtMost: 200 })).events.map((e) => e._id)).toEqual([later._id]);
  });

  it("walks each account's events on its own: an account with only young events keeps them while another's old ones go", async () => {
    const old = await ingest(40, 'walked');
    const neighbour = await events.insertWithNextId({ ...blank(now - DAY), account_id: 'acct_retention_young' }, (id) => JSON.stringify({ id }));
    expect(await retention.purge()).toBe(1);
    expect((await kept(old)).event).toBe(false);
    expect(await events.findUnscoped(neighbour._id)).not.toBeNull();
  });

  it('passes the FIFO queues over the places of the events it removes, wakes the new head, and keeps the young events\' places', async () => {
    const queues = new FifoQueues(db);
    const woken: string[] = [];
    const fifo = new FifoTurns({ queues, events, deliveries, wake: async (id) => void woken.push(id), clock: () => new Date(now) });
    const purging = new EventRetention({ events, deliveries, idempotency, fifo, retentionMs: RETENTION_MS, logger: createLogger('silent'), clock: () => new Date(now) });
    const fifoEvent = (ageDays: number) =>
      events.insertWithNextId({ ...blank(now - ageDays * DAY), endpoint_ids: ['ep_fifo'] }, (id) => JSON.stringify({ id }), undefined, (id) => fifo.placesFor(['ep_fifo'], id));
    const old = [];
    for (let i = 0; i < 70; i++) old.push(await fifoEvent(40));
    const young = [await fifoEvent(1), await fifoEvent(0)];
    // No old delivery recorded an end (their endpoint paused for 40 days): the queue waits behind the oldest, the young too.
    expect(await fifo.view('ep_fifo')).toEqual({ head_event_id: old[0]!._id, length: 72 });
    expect(await fifo.turnOf(young[0]!._id, 'ep_fifo')).toEqual({ place: 71, now: false });

    expect(await purging.purge()).toBe(70);

    const ids = async (collection: string) => (await db.collection<{ _id: string }>(collection).find({}).toArray()).map((d) => d._id).sort();
    expect(await ids('fifo_places')).toEqual(['ep_fifo#71', 'ep_fifo#72']);
    expect(young.map((e) => e.fifo_places)).toEqual([{ ep_fifo: 71 }, { ep_fifo: 72 }]);
    // Each step of the purge moves the head past the places it removes and wakes the holder it lands on: last, the oldest young one.
    expect(woken.at(-1)).toBe(deliveryId(young[0]!._id, 'ep_fifo'));
    expect(woken).not.toContain(deliveryId(young[1]!._id, 'ep_fifo'));
    expect(await fifo.turnOf(young[0]!._id, 'ep_fifo')).toEqual({ place: 71, now: true });
    expect(await fifo.view('ep_fifo')).toEqual({ head_event_id: young[0]!._id, length: 2 });
    expect((await queues.queue('ep_fifo'))?.tail).toBe(72);
  });

  it('a key whose record was purged can be used again', async () => {
    const old = await ingest(40, 'reused');
    await retention.purge();
    const again = await ingest(0, 'reused');
    const record = await idempotency.find({ issuer: 'account', accountId: 'acct_retention' }, 'reused');
    expect(record?.event_id).toBe(again.id);
    expect(again.id).toBeGreaterThan(old.id);
  });

  it("a purge leaves a key's record that a later event took over after it expired", async () => {
    const old = await ingest(40, 'taken-over');
    const again = await ingest(0, 'taken-over');
    expect((await idempotency.find({ issuer: 'account', accountId: 'acct_retention' }, 'taken-over'))?.event_id).toBe(again.id);
    expect(await retention.purge()).toBe(1);
    expect((await kept(old)).event).toBe(false);
    expect((await idempotency.find({ issuer: 'account', accountId: 'acct_retention' }, 'taken-over'))?.event_id).toBe(again.id);
  });
});

function blank(now: number) {
  return {
    account_id: 'acct_retention',
    type: 'retention.test',
    data: {},
    timestamp: Math.floor(now / 1000),
    idempotency_key: null,
    endpoint_ids: [],
    endpoint_urls: [],
    owner: null,
    created_at: new Date(now),
  };
}

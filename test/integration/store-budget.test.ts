import type { CommandStartedEvent } from 'mongodb';
import type { Platform } from '../../src/main/platform';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { buildDeliveryBody } from '../../src/domain/webhooks/delivery-request';
import { DashboardClient, GOOD_PASSWORD, newEmail } from '../support/dashboard-client';
import { MAX_LIST_SCAN } from '../../src/services/event-service';
import { deliveryClosed } from '../support/delivery-workflows';
import { holdMethod } from '../support/gate';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { rowsHandedToFerretDb } from '../support/store-rows';
import { described, recordStoreWrites, type StoreWrite, wasRefused } from '../support/store-writes';

/**
 * docs/delivery.md "Store budget": the store round trips of the delivery path, counted with MongoDB
 * command monitoring on the platform's own client. Key authentication and limits are counted
 * by their own tests; the per-account endpoint list is cached (one read a second at most).
 */
describe('store budget of the delivery path', () => {
  let platform: Platform;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const commands: Array<{ name: string; collection: string; filter: unknown; sort?: unknown; limit?: unknown }> = [];
  const PATH_COLLECTIONS = new Set(['events', 'event_ids', 'event_sequences', 'idempotency_records', 'deliveries', 'delivery_rounds', 'endpoints', 'endpoint_health']);

  beforeAll(async () => {
    platform = await startTestPlatform();
    receiver = await startReceiver();
    platform.mongo.on('commandStarted', (e: CommandStartedEvent) => {
      const collection = String((e.command as Record<string, unknown>)[e.commandName]);
      if (!PATH_COLLECTIONS.has(collection)) return;
      const { filter, sort, limit } = e.command as { filter?: unknown; sort?: unknown; limit?: unknown };
      // The endpoints cache lists an account's endpoints at most once a second: not per ingest.
      if (collection === 'endpoints' && e.commandName === 'find' && !(filter as { _id?: unknown })?._id) return;
      commands.push({ name: e.commandName, collection, filter, sort, limit });
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await platform?.stop();
  });

  /** Every delivery this file started, as (event, endpoint). */
  const started: Array<[number, string]> = [];

  /** Waits until every delivery started so far has closed: no attempt of an earlier event can then mix into a count. */
  async function settled(): Promise<void> {
    for (const [eventId, endpointId] of started) await deliveryClosed(platform.temporal, eventId, endpointId);
  }

  /** A fresh account with one endpoint, whose first event (a warm-up) is delivered before anything is counted or held. */
  async function account() {
    const api = apiClient(platform, (await createAccountWithKey(platform)).key);
    const endpointId: string = (await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/budget` })).body.id;
    const ingest = async (event: Record<string, unknown>) => {
      const res = await api.post('/api/v1/webhooks/events', event);
      if (res.status === 202) started.push([res.body.id, endpointId]);
      return res;
    };
    expect((await ingest({ type: 'warm.up', data: {} })).status).toBe(202);
    await settled();
    return { api, ingest };
  }

  const summary = (list: typeof commands) => list.map((c) => `${c.name} ${c.collection}`).sort();

  /**
   * One ingest on a fresh account, and the commands it sent. Workflow starts are held meanwhile so
   * that no attempt's commands mix into the count.
   */
  async function ingestCounted(event: Record<string, unknown>) {
    const { ingest } = await account();
    const starts = holdMethod(platform.services.scheduler, 'start');
    try {
      commands.length = 0;
      const res = await ingest(event);
      // Copied while starts are still held: what came after the hold is not the ingest's.
      return { res, sent: [...commands] };
    } finally {
      starts.open();
      starts.restore();
    }
  }

  // The process's block of ids was reserved by the warm-up (one `$inc` serves ID_BLOCK events): not per ingest.
  it("an ingest with an idempotency key: read the key, take the account's next number, insert the event, write the key's record (3 writes)", async () => {
    const { res, sent } = await ingestCounted({ type: 'budget.keyed', data: {}, idempotency_key: 'budget-1' });
    expect(res.status).toBe(202);
    expect(summary(sent)).toEqual(['find idempotency_records', 'findAndModify event_sequences', 'findAndModify idempotency_records', 'insert events']);
  });

  it("an ingest without a key: the account's next number and the event", async () => {
    const { res, sent } = await ingestCounted({ type: 'budget.plain', data: {} });
    expect(res.status).toBe(202);
    expect(summary(sent)).toEqual(['findAndModify event_sequences', 'insert events']);
  });

  it('a repeat of a key: one read', async () => {
    const { ingest } = await account();
    expect((await ingest({ type: 'budget.repeat', data: {}, idempotency_key: 'budget-2' })).status).toBe(202);
    await settled();
    commands.length = 0;
    const repeat = await ingest({ type: 'budget.repeat', data: {}, idempotency_key: 'budget-2' });
    expect(repeat.status).toBe(200);
    expect(summary(commands)).toEqual(['find idempotency_records']);
  });

  /** One event ingested and delivered on a fresh account, counted until its delivery's end is in its endpoint's health. */
  async function deliverOneCounted(type: string): Promise<void> {
    const { ingest } = await account();
    commands.length = 0;
    const res = await ingest({ type, data: {} });
    await eventually(async () => receiver.received.some((r) => JSON.parse(r.rawBody).id === res.body.id) || undefined);
    await eventually(async () => commands.some((c) => c.collection === 'endpoint_health' && c.name === 'findAndModify') || undefined);
  }

  it("a first attempt: no read (its endpoint from the cache ingest filled, its event vouched for by the platform's seal) and one write (the attempt and the delivery state)", async () => {
    await deliverOneCounted('budget.attempt');
    const ingestWrites = ['events', 'event_ids', 'event_sequences'];
    const attemptCommands = commands.filter((c) => !(ingestWrites.includes(c.collection) && c.name !== 'find') && c.collection !== 'endpoint_health');
    expect(summary(attemptCommands)).toEqual(['update deliveries']);
  });

  it("a delivery's end (here its first attempt succeeded): one update of its endpoint's health", async () => {
    await deliverOneCounted('budget.outcome');
    expect(summary(commands.filter((c) => c.collection === 'endpoint_health'))).toEqual(['findAndModify endpoint_health']);
  });

  describe('an event list, with 100 endpoints and 200 events', () => {
    let accountId: string;
    let dashboard: DashboardClient;
    let api: ReturnType<typeof apiClient>;
    const delivered: number[] = [];

    /**
     * 200 events matched to 100 endpoints each (stored as ingest stores them, but not dispatched,
     * so nothing else talks to the store meanwhile); two of them, far apart, delivered everywhere.
     */
    beforeAll(async () => {
      dashboard = new DashboardClient(platform.apiUrl!, { 'X-Forwarded-For': '10.99.0.1' });
      const email = newEmail();
      expect((await dashboard.signUp(email, GOOD_PASSWORD)).status).toBe(303);
      accountId = (await platform.repositories.accounts.findByEmail(email))!._id;
      api = apiClient(platform, (await platform.services.accounts.createKey(accountId, 'weh', 'budget')).key);
      const endpoints: Array<{ id: string; url: string | null }> = [];
      for (let i = 0; i < 100; i++) endpoints.push(await platform.services.endpoints.create(accountId, { url: `${receiver.url}/list-${i}` }));
      const ids: number[] = [];
      for (let i = 0; i < 200; i++) {
        const timestamp = Math.floor(Date.now() / 1000);
        const event = await platform.repositories.events.insertWithNextId(
          { account_id: accountId, type: 'budget.list', data: { i }, timestamp, idempotency_key: null, endpoint_ids: endpoints.map((e) => e.id), endpoint_urls: endpoints.map((e) => e.url ?? ''), owner: null, created_at: new Date() },
          (id) => buildDeliveryBody({ id, type: 'budget.list', data: { i }, timestamp }),
        );
        ids.push(event._id);
      }
      delivered.push(ids[150]!, ids[10]!);
      for (const eventId of delivered) {
        for (const e of endpoints) {
          const ref = { id: deliveryId(eventId, e.id), account_id: accountId, event_id: eventId, endpoint_id: e.id };
          await platform.repositories.deliveries.setState(ref, { round: 1, status: 'succeeded', attempt_count: 1, next_attempt_at: null }, new Date());
        }
      }
    }, 600_000);

    const listCommands = () => commands.filter((c) => c.collection === 'events' || c.collection === 'deliveries');

    /** Rows each `find` of the call on `collection` makes the embedded store read (test/support/store-rows.ts). */
    const rowsOf = (sent: typeof commands, collection = 'events') =>
      Promise.all(sent.filter((c) => c.name === 'find' && c.collection === collection).map((c) => rowsHandedToFerretDb(platform.db, collection, c.filter, c)));
    /** The delivery records of the two delivered events: 100 each. */
    const RECORDS_OF_ONE_EVENT = 100;
    const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);

    /** The reads a `?status=delivered` list may make, through the API and the dashboard alike. */
    async function expectDeliveredFilterReads(sent: typeof commands): Promise<void> {
      const rows = await rowsOf(sent);
      // One walk of the account's newest events, then the bodies of the page by `_id`.
      expect(rows[0]).toBeLessThanOrEqual(MAX_LIST_SCAN);
      expect(sum(rows)).toBeLessThanOrEqual(MAX_LIST_SCAN + 20);
      // The records of the examined events, by one `$in` of their ids.
      expect(sum(await rowsOf(sent, 'deliveries'))).toBeLessThanOrEqual(2 * RECORDS_OF_ONE_EVENT);
      expect(summary(sent).filter((c) => c === 'find deliveries')).toHaveLength(1);
    }

    it(`API, ?status=delivered: ${MAX_LIST_SCAN} events examined by one index walk, the records of their deliveries by one \`$in\`, and the bodies of the page`, async () => {
      await settled();
      commands.length = 0;
      const res = await api.get('/api/v1/webhooks/events?status=delivered');
      expect(res.status).toBe(200);
      expect(res.body.data.map((e: { id: number }) => e.id)).toEqual(delivered);
      await expectDeliveredFilterReads(listCommands());
    });

    it('API, a page of 20 without a filter: one walk of 21 events, the 20 bodies and the page\'s delivery records, whatever the endpoint count and history', async () => {
      await settled();
      commands.length = 0;
      const res = await api.get('/api/v1/webhooks/events?limit=20');
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(20);
      const sent = listCommands();
      const rows = await rowsOf(sent);
      expect(rows[0]).toBe(21);
      expect(sum(rows)).toBeLessThanOrEqual(21 + 20);
      // None of the 21 events examined has a delivery record: none is read (not the account's other 200).
      expect(sum(await rowsOf(sent, 'deliveries'))).toBe(0);
      expect(summary(sent).filter((c) => c === 'find deliveries').length).toBeLessThanOrEqual(1);
      expect(sent.length).toBeLessThanOrEqual(28);
    });

    it('dashboard, ?status=delivered: the same bounded reads', async () => {
      await settled();
      commands.length = 0;
      const res = await dashboard.get('/dashboard/events?status=delivered');
      expect(res.status).toBe(200);
      for (const id of delivered) expect(res.text).toContain(`/dashboard/events/${id}`);
      await expectDeliveredFilterReads(listCommands());
    });
  });

  describe('two API processes ingesting for the same accounts', () => {
    let second: Platform;
    /** The collections an ingest writes (metering has its own tests). */
    const INGEST_COLLECTIONS = new Set(['events', 'event_ids', 'event_sequences', 'idempotency_records']);
    /** Both processes' store writes. */
    const writes: StoreWrite[] = [];
    const ingestWrites = () => writes.filter((w) => INGEST_COLLECTIONS.has(w.collection));

    beforeAll(async () => {
      second = await startTestPlatform({ sameAs: platform, roles: { api: true, worker: false } });
      recordStoreWrites(platform.mongo, writes);
      recordStoreWrites(second.mongo, writes);
    });
    afterAll(async () => {
      await second?.stop();
    });

    it('an accepted ingest with a key makes at most 3 store writes, none of them a lost claim', async () => {
      const accounts = await Promise.all(Array.from({ length: 4 }, () => createAccountWithKey(platform)));
      const clients = accounts.map(({ key }) => [apiClient(platform, key), apiClient(second, key)] as const);
      // A warm-up through each process (its block of ids, the accounts' counters), then 20 ingests each, all at once.
      for (const [here, there] of clients) for (const api of [here, there]) expect((await api.post('/api/v1/webhooks/events', { type: 'budget.warm', data: {} })).status).toBe(202);
      writes.length = 0;
      const calls = Array.from({ length: 40 }, (_, i) => clients[i % 4][i % 2].post('/api/v1/webhooks/events', { type: 'budget.two', data: { i }, idempotency_key: `two-${i}` }));
      const answers = await Promise.all(calls);
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 202));
      expect(new Set(answers.map((r) => r.body.id)).size).toBe(40);
      // A refused write is a lost claim (a duplicate key) or any other error.
      expect(ingestWrites().filter(wasRefused)).toEqual([]);
      expect(ingestWrites().length / 40).toBeLessThanOrEqual(3);
      expect(ingestWrites().map(described).sort()).toEqual([
        ...Array.from({ length: 40 }, () => 'findAndModify event_sequences'),
        ...Array.from({ length: 40 }, () => 'findAndModify idempotency_records'),
        ...Array.from({ length: 40 }, () => 'insert events'),
      ]);
    });

    it('concurrent repeats of one key sent to both processes yield exactly one event, and every answer names it', async () => {
      const { accountId, key } = await createAccountWithKey(platform);
      const [here, there] = [apiClient(platform, key), apiClient(second, key)];
      for (let k = 0; k < 5; k++) {
        const event = { type: 'budget.repeat', data: { k }, idempotency_key: `repeat-both-${k}` };
        const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? here : there).post('/api/v1/webhooks/events', event)));
        expect(answers.filter((r) => r.status === 202)).toHaveLength(1);
        expect(answers.filter((r) => r.status === 200)).toHaveLength(11);
        expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
      }
      const stored = await platform.services.events.list(accountId, { limit: 100 });
      expect(stored.data.map((e) => e.idempotency_key).sort()).toEqual(Array.from({ length: 5 }, (_, k) => `repeat-both-${k}`));
    });
  });
});

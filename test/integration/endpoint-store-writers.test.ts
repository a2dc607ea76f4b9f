import type { CommandStartedEvent, Db } from 'mongodb';
import { secretsInGrace } from '../../src/domain/webhooks/secret-rotation';
import { EndpointHealthLog } from '../../src/persistence/endpoint-health-log';
import { EndpointInFlightLeases } from '../../src/persistence/endpoint-in-flight-leases';
import { EndpointRateTokens } from '../../src/persistence/endpoint-rate-tokens';
import { Endpoints } from '../../src/persistence/endpoints';
import { endpointDoc } from '../support/endpoint-doc';
import { ENDPOINT_WRITERS, ROTATED_ENDPOINTS, secretBoxFor } from '../support/endpoint-store-ops';
import type { WriterJob } from '../support/store-writer-ops';
import { runWritersTogether } from '../support/store-writers';
import { openTestDb } from '../support/test-db';

/**
 * What endpoints keep exact across processes, on the embedded store: writers in two processes
 * (test/support/store-writer.ts) send their operations at once against the same documents.
 */
describe('endpoint records under writers in two processes', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('endpoint_store_writers');
    db = store.db;
  });
  afterAll(() => store.close());

  const bothWriters = <R>(op: WriterJob['op'], scope: string, count: number) =>
    runWritersTogether<R>(['a', 'b'].map((name) => ({ uri: process.env.MONGODB_URI!, db: db.databaseName, op, scope, count, name })));

  it('health: 2 × 20 failed deliveries, each recorded twice at once, count 40 failures', async () => {
    await bothWriters<number>('recordHealth', 'ep_health', 20);
    const health = await new EndpointHealthLog(db).read('ep_health');
    expect({ consecutive: health.consecutive_failures, failed: health.hours.reduce((sum, h) => sum + h.failed, 0) }).toEqual({ consecutive: 40, failed: 40 });
  });

  it('endpoint cap: 2 × 10 creates for one account at once insert exactly the cap', async () => {
    const [a, b] = await bothWriters<string[]>('createEndpoints', 'acct_cap', 10);
    expect(a.length + b.length).toBe(ENDPOINT_WRITERS.cap);
    expect(await db.collection('endpoints').countDocuments({ account_id: 'acct_cap' })).toBe(ENDPOINT_WRITERS.cap);
    // A delete gives its place back: one more fits, then none.
    const endpoints = new Endpoints(db);
    expect(await endpoints.delete('acct_cap', a[0] ?? (b[0] as string))).toBe(true);
    expect(await endpoints.insertIfRoom(endpointDoc('sealed', { _id: 'ep_cap_again', account_id: 'acct_cap' }), ENDPOINT_WRITERS.cap)).toBeNull();
    expect(await endpoints.insertIfRoom(endpointDoc('sealed', { _id: 'ep_cap_over', account_id: 'acct_cap' }), ENDPOINT_WRITERS.cap)).toBe('account_full');
  });

  it('rate tokens: 2 × 20 takes of one window hand out exactly the rate', async () => {
    const [a, b] = await bothWriters<number>('takeRateTokens', 'ep_rate', 20);
    expect(a + b).toBe(ENDPOINT_WRITERS.ratePerSecond);
  });

  it('in-flight leases: 2 × 10 acquires give exactly the cap, distinct, and a release frees a place', async () => {
    const [a, b] = await bothWriters<string[]>('acquireLeases', 'ep_leases', 10);
    expect(new Set([...a, ...b]).size).toBe(ENDPOINT_WRITERS.inFlight);
    const leases = new EndpointInFlightLeases(db);
    const now = new Date();
    expect(await leases.acquire('ep_leases', ENDPOINT_WRITERS.inFlight, now, new Date(now.getTime() + 60_000))).toBeNull();
    await leases.release('ep_leases', (a[0] ?? b[0]) as string);
    expect(await leases.acquire('ep_leases', ENDPOINT_WRITERS.inFlight, now, new Date(now.getTime() + 60_000))).not.toBeNull();
  });

  it('secret rotation: 2 × 2 rotations of each of 5 endpoints at once each keep their secret signing', async () => {
    const secretBox = secretBoxFor('ep_rotated');
    const endpoints = new Endpoints(db);
    const ids = ROTATED_ENDPOINTS.map((k) => `ep_rotated-${k}`);
    for (const id of ids) await endpoints.insertIfRoom(endpointDoc(secretBox.seal(`whsec_original_${id}`), { _id: id, account_id: 'acct_ep_rotated' }), 10);
    const [a, b] = await bothWriters<string[][]>('rotateSecrets', 'ep_rotated', 2);
    for (const [k, id] of ids.entries()) {
      const doc = (await endpoints.find('acct_ep_rotated', id))!;
      const signing = [doc.secret_sealed, ...secretsInGrace(doc, new Date()).map((s) => s.sealed)].map((sealed) => secretBox.open(sealed));
      expect(signing.sort()).toEqual([...(a[k] as string[]), ...(b[k] as string[]), `whsec_original_${id}`].sort());
    }
  });
});

describe('endpoint limits in the store, one process', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('endpoint_limits');
    db = store.db;
  });
  afterAll(() => store.close());

  const later = new Date(Date.now() + 3_600_000);

  it('starts each rate window afresh, and keeps endpoints apart', async () => {
    const tokens = new EndpointRateTokens(db);
    expect(await tokens.take('ep_next', 1, 200, later)).toBe(true);
    expect(await tokens.take('ep_next', 1, 200, later)).toBe(false);
    expect(await tokens.take('ep_next', 1, 201, later)).toBe(true);
    expect(await tokens.take('ep_other', 1, 200, later)).toBe(true);
  });

  const storedLeases = async (endpointId: string) =>
    ((await db.collection('endpoint_in_flight_leases').findOne({ _id: endpointId } as never))?.leases as Array<{ id: string }>).map((lease) => lease.id);

  it("does not count a lease past its expiry (a killed worker's), and drops it when its place is taken", async () => {
    const leases = new EndpointInFlightLeases(db);
    const now = new Date();
    const lapsed = await leases.acquire('ep_lapsed', 1, new Date(now.getTime() - 120_000), new Date(now.getTime() - 60_000));
    expect(lapsed).not.toBeNull();
    const live = await leases.acquire('ep_lapsed', 1, now, later);
    expect(live).not.toBeNull();
    expect(await storedLeases('ep_lapsed')).toEqual([live]);
    expect(await leases.acquire('ep_lapsed', 1, now, later)).toBeNull();
  });

  it('counts only the alive leases among lapsed ones of any age, whatever order they were taken in', async () => {
    const leases = new EndpointInFlightLeases(db);
    const now = new Date();
    const at = (s: number) => new Date(now.getTime() + s * 1000);
    // Taken at -100 s (lapsed at -40 s), at -30 s (lapses at +30 s), at -90 s (lapsed at -30 s), each while there was room.
    const first = await leases.acquire('ep_mixed', 3, at(-100), at(-40));
    const alive = await leases.acquire('ep_mixed', 3, at(-30), at(30));
    const third = await leases.acquire('ep_mixed', 3, at(-90), at(-30));
    expect([first, alive, third].every((lease) => lease !== null)).toBe(true);
    expect(await storedLeases('ep_mixed')).toEqual([alive, third, first]);
    const taken = [await leases.acquire('ep_mixed', 3, now, at(60)), await leases.acquire('ep_mixed', 3, now, at(50))];
    expect(taken.every((lease) => lease !== null)).toBe(true);
    expect(await leases.acquire('ep_mixed', 3, now, at(60))).toBeNull();
    expect(await storedLeases('ep_mixed')).toEqual([taken[0], taken[1], alive]);
  });

  it('an acquire is one command, given a place or refused', async () => {
    const monitored = await openTestDb('endpoint_leases_commands', { monitorCommands: true });
    try {
      const commands: string[] = [];
      monitored.client.on('commandStarted', (e: CommandStartedEvent) => commands.push(e.commandName));
      const leases = new EndpointInFlightLeases(monitored.db);
      const now = new Date();
      expect(await leases.acquire('ep_one', 1, now, later)).not.toBeNull();
      expect(await leases.acquire('ep_one', 1, now, later)).toBeNull();
      expect(commands).toEqual(['update', 'update']);
    } finally {
      await monitored.close();
    }
  });

  it('a lowered cap refuses until enough leases are released', async () => {
    const leases = new EndpointInFlightLeases(db);
    const now = new Date();
    const held = await Promise.all([0, 1, 2].map(() => leases.acquire('ep_lowered', 3, now, later)));
    expect(await leases.acquire('ep_lowered', 2, now, later)).toBeNull();
    await leases.release('ep_lowered', held[0] as string);
    expect(await leases.acquire('ep_lowered', 2, now, later)).toBeNull();
    await leases.release('ep_lowered', held[1] as string);
    expect(await leases.acquire('ep_lowered', 2, now, later)).not.toBeNull();
  });
});

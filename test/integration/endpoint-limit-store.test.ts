import type { Db } from 'mongodb';
import { EndpointInFlightLeases } from '../../src/persistence/endpoint-in-flight-leases';
import { EndpointRateTokens } from '../../src/persistence/endpoint-rate-tokens';
import { openTestDb } from '../support/test-db';

/**
 * An endpoint's limits as the store holds them, on the real embedded store. Two instances stand for
 * two worker processes: each has its own memory, the documents are shared.
 */
describe('endpoint limits in the store', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('endpoint_limits');
    db = store.db;
  });
  afterAll(() => store.close());

  const later = new Date(Date.now() + 3_600_000);

  describe('start tokens per second', () => {
    it('hands out exactly the rate of one window among concurrent takers in two processes, then refuses', async () => {
      const processes = [new EndpointRateTokens(db), new EndpointRateTokens(db)];
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (processes[i % 2] as EndpointRateTokens).take('ep_burst', 5, 100, later)));
      expect(results.filter(Boolean)).toHaveLength(5);
      expect(await processes[0]!.take('ep_burst', 5, 100, later)).toBe(false);
      expect(await db.collection('endpoint_rate_tokens').countDocuments({ endpoint_id: 'ep_burst', window: 100 })).toBe(5);
    });

    it('starts each window afresh', async () => {
      const tokens = new EndpointRateTokens(db);
      expect(await tokens.take('ep_next', 1, 200, later)).toBe(true);
      expect(await tokens.take('ep_next', 1, 200, later)).toBe(false);
      expect(await tokens.take('ep_next', 1, 201, later)).toBe(true);
    });

    it('counts the tokens another process took, which this one had not seen', async () => {
      const [a, b] = [new EndpointRateTokens(db), new EndpointRateTokens(db)];
      expect(await a.take('ep_shared', 3, 300, later)).toBe(true);
      expect(await a.take('ep_shared', 3, 300, later)).toBe(true);
      expect(await b.take('ep_shared', 3, 300, later)).toBe(true);
      expect(await b.take('ep_shared', 3, 300, later)).toBe(false);
      expect(await a.take('ep_shared', 3, 300, later)).toBe(false);
    });

    it('keeps endpoints apart', async () => {
      const tokens = new EndpointRateTokens(db);
      expect(await tokens.take('ep_one', 1, 400, later)).toBe(true);
      expect(await tokens.take('ep_two', 1, 400, later)).toBe(true);
    });
  });

  describe('leases of requests in flight', () => {
    it('lets no more than the cap be alive among concurrent acquirers in two processes', async () => {
      const now = new Date();
      const processes = [new EndpointInFlightLeases(db), new EndpointInFlightLeases(db)];
      const leases = await Promise.all(Array.from({ length: 10 }, (_, i) => (processes[i % 2] as EndpointInFlightLeases).acquire('ep_cap', 2, now, later)));
      expect(leases.filter((l) => l !== null).length).toBeLessThanOrEqual(2);
      expect(await db.collection('endpoint_in_flight_leases').countDocuments({ endpoint_id: 'ep_cap' })).toBeLessThanOrEqual(2);
    });

    it('frees a place when a lease is released', async () => {
      const leases = new EndpointInFlightLeases(db);
      const now = new Date();
      const first = await leases.acquire('ep_free', 1, now, later);
      expect(first).not.toBeNull();
      expect(await leases.acquire('ep_free', 1, now, later)).toBeNull();
      await leases.release(first as string);
      expect(await leases.acquire('ep_free', 1, now, later)).not.toBeNull();
    });

    it("does not count a lease past its expiry (a killed worker's)", async () => {
      const leases = new EndpointInFlightLeases(db);
      const now = new Date();
      expect(await leases.acquire('ep_lapsed', 1, new Date(now.getTime() - 120_000), new Date(now.getTime() - 60_000))).not.toBeNull();
      expect(await leases.acquire('ep_lapsed', 1, now, later)).not.toBeNull();
    });
  });
});

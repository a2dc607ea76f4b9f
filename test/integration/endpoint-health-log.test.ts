import type { Db } from 'mongodb';
import { applyHealthFact, countLast24h, EMPTY_HEALTH, type HealthFact, type HealthSummary } from '../../src/domain/webhooks/endpoint-health';
import { EndpointHealthLog, RECENT_FACT_KEYS } from '../../src/persistence/endpoint-health-log';
import { openTestDb } from '../support/test-db';

const HOUR = 3_600_000;
let seq = 0;
const failed = (key = `d${++seq}`, at = new Date()): HealthFact => ({ kind: 'delivery', key, succeeded: false, at });

/** Endpoint health as one document per endpoint on the real embedded store: exact counts, each fact once (two processes: endpoint-store-writers.test.ts). */
describe('endpoint health store', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('endpoint_health_log');
    db = store.db;
  });
  afterAll(() => store.close());

  it('an endpoint with no facts reads as empty health', async () => {
    expect(await new EndpointHealthLog(db).read('ep_none')).toEqual(EMPTY_HEALTH);
  });

  it('a fact recorded twice (an activity run again) counts once', async () => {
    const log = new EndpointHealthLog(db);
    const fact = failed();
    await log.record('ep_twice', fact);
    expect((await log.record('ep_twice', fact)).consecutive_failures).toBe(1);
    expect((await new EndpointHealthLog(db).read('ep_twice')).consecutive_failures).toBe(1);
  });

  it('the same fact recorded 10 times at once counts once', async () => {
    const log = new EndpointHealthLog(db);
    const fact = failed();
    await Promise.all(Array.from({ length: 10 }, () => log.record('ep_repeated', fact)));
    expect((await log.read('ep_repeated')).consecutive_failures).toBe(1);
  });

  it(`a fact is known by key for at least the latest ${RECENT_FACT_KEYS} facts, and the keys kept stay bounded`, async () => {
    const log = new EndpointHealthLog(db);
    const fact = failed();
    await log.record('ep_window', fact);
    for (let i = 0; i < RECENT_FACT_KEYS - 1; i++) await log.record('ep_window', failed());
    expect((await log.record('ep_window', fact)).consecutive_failures).toBe(RECENT_FACT_KEYS);
    for (let i = 0; i < 4 * RECENT_FACT_KEYS; i++) await log.record('ep_window', failed());
    const stored = await db.collection('endpoint_health').findOne({ _id: 'ep_window' } as never);
    expect(stored?.recent_keys.length).toBeLessThan(2 * RECENT_FACT_KEYS);
    expect((await log.record('ep_window', fact)).consecutive_failures).toBe(5 * RECENT_FACT_KEYS + 1);
  });

  it('reads as the domain rule (applyHealthFact) says, for successes, failures, re-enabling and hours', async () => {
    const log = new EndpointHealthLog(db);
    const t0 = Date.parse('2026-11-01T10:30:00Z');
    const at = (hours: number) => new Date(t0 + hours * HOUR);
    const facts: HealthFact[] = [
      { kind: 'delivery', key: 'a', succeeded: true, at: at(0) },
      failed('b', at(1)),
      failed('c', at(1.2)),
      { kind: 'enabled', key: 'enabled#1', at: at(2) },
      failed('d', at(3)),
      { kind: 'delivery', key: 'e', succeeded: true, at: at(30) },
      failed('f', at(31)),
      failed('g', at(32)),
    ];
    let expected: HealthSummary = EMPTY_HEALTH;
    for (const fact of facts) {
      expected = applyHealthFact(expected, fact);
      const stored = await log.record('ep_rule', fact);
      const { hours: _storedHours, ...storedRest } = stored;
      const { hours: _expectedHours, ...expectedRest } = expected;
      expect(storedRest).toEqual(expectedRest);
      for (const now of [fact.at, new Date(fact.at.getTime() + 20 * HOUR)]) expect(countLast24h(stored, now)).toEqual(countLast24h(expected, now));
    }
  });

  it('drops the hours before the window of the newest one', async () => {
    const log = new EndpointHealthLog(db);
    const t0 = Date.parse('2026-11-01T00:00:00Z');
    for (let hour = 0; hour < 30; hour++) await log.record('ep_hours', failed(undefined, new Date(t0 + hour * HOUR)));
    expect((await log.read('ep_hours')).hours.map((h) => h.hour)).toEqual(Array.from({ length: 24 }, (_, i) => t0 + (i + 6) * HOUR));
  });

  it('the summary read back carries no bookkeeping of the store', async () => {
    const log = new EndpointHealthLog(db);
    await log.record('ep_clean', failed());
    expect(Object.keys(await new EndpointHealthLog(db).read('ep_clean')).sort()).toEqual(
      ['consecutive_failures', 'failing_since', 'hours', 'last_failure_at', 'last_success_at'].sort(),
    );
  });
});

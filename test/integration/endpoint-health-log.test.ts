import type { Db } from 'mongodb';
import { countLast24h, EMPTY_HEALTH, type HealthFact, type HealthSummary } from '../../src/domain/webhooks/endpoint-health';
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

  it(`a fact is known by key for exactly the latest ${RECENT_FACT_KEYS} facts, and only their keys are kept`, async () => {
    const log = new EndpointHealthLog(db);
    const fact = failed();
    await log.record('ep_window', fact);
    const others = Array.from({ length: RECENT_FACT_KEYS }, () => failed());
    for (const other of others.slice(0, -1)) await log.record('ep_window', other);
    expect((await log.record('ep_window', fact)).consecutive_failures).toBe(RECENT_FACT_KEYS);
    await log.record('ep_window', others.at(-1)!);
    const stored = await db.collection('endpoint_health').findOne({ _id: 'ep_window' } as never);
    expect(stored?.recent_keys).toEqual(others.map((other) => other.key));
    expect((await log.record('ep_window', fact)).consecutive_failures).toBe(RECENT_FACT_KEYS + 2);
  });

  it('a success ends the failing streak, a re-enable starts it afresh, each delivery is counted in its hour', async () => {
    const log = new EndpointHealthLog(db);
    const t0 = Date.parse('2026-11-01T10:30:00Z');
    const at = (hours: number) => new Date(t0 + hours * HOUR);
    const succeeded = (key: string, hours: number): HealthFact => ({ kind: 'delivery', key, succeeded: true, at: at(hours) });
    const record = (fact: HealthFact) => log.record('ep_rule', fact);
    const streak = (health: HealthSummary) => [health.consecutive_failures, health.failing_since, health.last_success_at, health.last_failure_at];

    expect(streak(await record(succeeded('a', 0)))).toEqual([0, null, at(0), null]);
    await record(failed('b', at(1)));
    expect(streak(await record(failed('c', at(1.2))))).toEqual([2, at(1), at(0), at(1.2)]);
    expect(streak(await record({ kind: 'enabled', key: 'enabled#1', at: at(2) }))).toEqual([0, null, at(0), at(1.2)]);
    expect(streak(await record(failed('d', at(3))))).toEqual([1, at(3), at(0), at(3)]);
    expect(countLast24h(await log.read('ep_rule'), at(3))).toEqual({ succeeded_24h: 1, failed_24h: 3 });
    expect(streak(await record(succeeded('e', 30)))).toEqual([0, null, at(30), at(3)]);
    await record(failed('f', at(31)));
    const last = await record(failed('g', at(32)));
    expect(streak(last)).toEqual([2, at(31), at(30), at(32)]);
    expect(countLast24h(last, at(32))).toEqual({ succeeded_24h: 1, failed_24h: 2 });
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

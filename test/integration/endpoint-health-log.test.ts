import type { Db } from 'mongodb';
import type { HealthFact } from '../../src/domain/webhooks/endpoint-health';
import { EndpointHealthLog, RECENT_FACT_KEYS } from '../../src/persistence/endpoint-health-log';
import { openTestDb } from '../support/test-db';

let seq = 0;
const failed = (key = `d${++seq}`): HealthFact => ({ kind: 'delivery', key, succeeded: false, at: new Date() });

/** The endpoint health log on the real embedded store: exact counts, each fact once. */
describe('endpoint health log', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('endpoint_health_log');
    db = store.db;
  });
  afterAll(() => store.close());

  it('an endpoint with no facts reads as empty health', async () => {
    expect((await new EndpointHealthLog(db).read('ep_none')).consecutive_failures).toBe(0);
  });

  it('a fact recorded twice (an activity run again) counts once', async () => {
    const log = new EndpointHealthLog(db);
    const fact = failed();
    await log.record('ep_twice', fact);
    expect((await log.record('ep_twice', fact)).consecutive_failures).toBe(1);
    expect((await new EndpointHealthLog(db).read('ep_twice')).consecutive_failures).toBe(1);
  });

  it(`a fact is known by key for the latest ${RECENT_FACT_KEYS} facts, and only those`, async () => {
    const log = new EndpointHealthLog(db);
    const fact = failed();
    await log.record('ep_window', fact);
    for (let i = 0; i < RECENT_FACT_KEYS - 1; i++) await log.record('ep_window', failed());
    expect((await log.record('ep_window', fact)).consecutive_failures).toBe(RECENT_FACT_KEYS);
    await log.record('ep_window', failed());
    expect((await log.record('ep_window', fact)).consecutive_failures).toBe(RECENT_FACT_KEYS + 2);
  });

  it('facts recorded at once through two log objects (two workers) are all counted', async () => {
    const [a, b] = [new EndpointHealthLog(db), new EndpointHealthLog(db)];
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).record('ep_race', failed())));
    expect((await new EndpointHealthLog(db).read('ep_race')).consecutive_failures).toBe(20);
  });

  it('the summary read back carries no bookkeeping of the log', async () => {
    const log = new EndpointHealthLog(db);
    await log.record('ep_clean', failed());
    expect(Object.keys(await new EndpointHealthLog(db).read('ep_clean')).sort()).toEqual(
      ['consecutive_failures', 'failing_since', 'hours', 'last_failure_at', 'last_success_at'].sort(),
    );
  });
});

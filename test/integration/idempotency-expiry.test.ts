import type { Db } from 'mongodb';
import { ExpirySweepers, sweepExpired } from '../../src/persistence/expiry-sweepers';
import { IdempotencyRecords, type NewIdempotencyRecord } from '../../src/persistence/idempotency-records';
import { holdMethod } from '../support/gate';
import { openTestDb } from '../support/test-db';

const HOUR = 3_600_000;

/** Idempotency records expire as every expiring collection does, on the real embedded store (no TTL index: a purge timer). */
describe('idempotency records expiring', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  const sweepers = new ExpirySweepers();
  beforeAll(async () => {
    store = await openTestDb('idempotency_expiry');
    db = store.db;
  });
  afterAll(async () => {
    sweepers.stop();
    await store.close();
  });

  const recordOf = (key: string, eventId: number, expiresAt: Date): NewIdempotencyRecord => ({
    account_id: 'acct_expiry',
    issuer: 'account',
    key,
    event_id: eventId,
    response: { id: eventId },
    created_at: new Date(expiresAt.getTime() - 24 * HOUR),
    expires_at: expiresAt,
  });

  it('get a purge timer where the store refuses a TTL index, as the other expiring collections do', async () => {
    const ensured = jest.spyOn(sweepers, 'ensureExpiry');
    await new IdempotencyRecords(db).ensureIndexes(sweepers);
    expect(await ensured.mock.results[0]?.value).toBe('purge-timer');
  });

  it("a purge that read an expired record's id before a later use of the key took it over leaves the successor's record", async () => {
    const records = new IdempotencyRecords(db);
    const now = new Date();
    await records.claim(recordOf('k1', 1, new Date(now.getTime() - HOUR)), () => now);
    const col = db.collection('idempotency_records');
    // The purge has read the expired ids and waits before its deletes.
    const gate = holdMethod(col, 'bulkWrite');
    const purge = sweepExpired(col, now);
    await gate.reached;
    const successor = await records.claim(recordOf('k1', 2, new Date(now.getTime() + 24 * HOUR)), () => now);
    expect(successor.event_id).toBe(2);
    gate.open();
    expect(await purge).toBe(0);
    gate.restore();
    expect((await records.find('acct_expiry', 'k1'))?.event_id).toBe(2);
  });

  it('a purge removes a record once it has expired', async () => {
    const records = new IdempotencyRecords(db);
    const now = new Date();
    await records.claim(recordOf('k2', 3, new Date(now.getTime() - HOUR)), () => now);
    expect(await sweepExpired(db.collection('idempotency_records'), now)).toBe(1);
    expect(await records.find('acct_expiry', 'k2')).toBeNull();
  });
});

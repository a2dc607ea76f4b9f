import type { Db } from 'mongodb';
import { IdempotencyRecords, type NewIdempotencyRecord } from '../../src/persistence/idempotency-records';
import { openTestDb } from '../support/test-db';
import { holdTtlMonitor, ttlMonitorPass } from '../support/ttl-monitor';

const HOUR = 3_600_000;

/** Idempotency records expire by the TTL index every expiring collection has, deleted by the real embedded store's monitor. */
describe('idempotency records expiring', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  let records: IdempotencyRecords;
  beforeAll(async () => {
    store = await openTestDb('idempotency_expiry');
    db = store.db;
    records = new IdempotencyRecords(db);
    await records.ensureIndexes();
  });
  afterAll(() => store.close());

  const recordOf = (key: string, eventId: number, expiresAt: Date): NewIdempotencyRecord => ({
    account_id: 'acct_expiry',
    issuer: 'account',
    key,
    event_id: eventId,
    response: { id: eventId },
    created_at: new Date(expiresAt.getTime() - 24 * HOUR),
    expires_at: expiresAt,
  });

  it('have a TTL index on expires_at, as the other expiring collections do', async () => {
    const indexes = await db.collection('idempotency_records').listIndexes().toArray();
    expect(indexes).toContainEqual(expect.objectContaining({ key: { expires_at: 1 }, expireAfterSeconds: 0 }));
  });

  it("a monitor that read an expired record's id before a later use of the key took it over leaves the successor's record", async () => {
    const now = new Date();
    // The monitor has read the expired record's id and waits before its deletes.
    const gate = await holdTtlMonitor(db, 'idempotency_records');
    try {
      await records.claim(recordOf('k1', 1, new Date(now.getTime() - HOUR)), () => now);
      await gate.reached;
      const successor = await records.claim(recordOf('k1', 2, new Date(now.getTime() + 24 * HOUR)), () => now);
      expect(successor.event_id).toBe(2);
    } finally {
      await gate.open();
    }
    await ttlMonitorPass(db);
    expect((await records.find({ issuer: 'account', accountId: 'acct_expiry' }, 'k1'))?.event_id).toBe(2);
  });

  it('the monitor removes a record once it has expired', async () => {
    const now = new Date();
    await records.claim(recordOf('k2', 3, new Date(now.getTime() - HOUR)), () => now);
    await ttlMonitorPass(db);
    expect(await records.find({ issuer: 'account', accountId: 'acct_expiry' }, 'k2')).toBeNull();
  });
});

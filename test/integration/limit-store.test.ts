import type { Db } from 'mongodb';
import type { LimitPolicy } from '../../src/domain/limits/admission';
import { billingPeriodAt } from '../../src/domain/limits/billing-period';
import { windowFrom } from '../../src/domain/limits/burst-window';
import { BlockLimiter } from '../../src/persistence/block-limiter';
import { DashboardSignInAttempts } from '../../src/persistence/dashboard-sign-in-attempts';
import { LimitUsage } from '../../src/persistence/limit-usage';
import { LimitWindows } from '../../src/persistence/limit-windows';
import type { AdmitTally, LimitWriterJob } from '../support/limit-writer';
import { runWritersTogether } from '../support/store-writers';
import { openTestDb } from '../support/test-db';
import { holdTtlMonitor, ttlMonitorPass } from '../support/ttl-monitor';

const at = (iso: string) => new Date(iso);
const FIFTEEN_MINUTES = 15 * 60_000;

/** The limits' and the sign-in throttle's counters on the real embedded store. */
describe('limit counters on the real store', () => {
  let close: () => Promise<void>;
  let db: Db;

  beforeAll(async () => {
    ({ db, close } = await openTestDb('limit_store'));
    for (const repo of [new LimitWindows(db), new LimitUsage(db), new DashboardSignInAttempts(db)]) await repo.ensureIndexes();
  });
  afterAll(async () => {
    await close?.();
  });

  it('burst windows: the first look-up opens one; later ones before its end find it; after its end the next replaces it, its count at 0', async () => {
    const windows = new LimitWindows(db);
    const first = windowFrom(at('2031-05-10T12:00:00.000Z'));
    expect(await windows.current('acct:w', first)).toEqual(first);
    expect(await windows.add('acct:w', first, 4)).toBe(4);
    expect(await new LimitWindows(db).current('acct:w', windowFrom(at('2031-05-10T12:00:59.999Z')))).toEqual(first);
    expect(await windows.add('acct:w', first, -1)).toBe(3);
    const next = windowFrom(at('2031-05-10T12:01:00.000Z'));
    expect(await windows.current('acct:w', next)).toEqual(next);
    // A take or give-back meant for the window that ended changes nothing.
    expect(await windows.add('acct:w', first, 1)).toBeNull();
    expect(await windows.add('acct:w', next, 1)).toBe(1);
    expect(await db.collection('limit_windows').findOne({ _id: 'acct:w' as never })).toEqual({
      _id: 'acct:w',
      ...next,
      n: 1,
      expires_at: at('2031-05-10T12:03:00.000Z'),
    });
  });

  it('usage: one count per bucket and billing period, made by the first add', async () => {
    const usage = new LimitUsage(db);
    const may = billingPeriodAt(at('2031-05-20T08:00:00.000Z'));
    const june = billingPeriodAt(at('2031-06-01T00:00:00.000Z'));
    expect(await usage.count('acct:u', may)).toBe(0);
    expect(await usage.add('acct:u', may, 5)).toBe(5);
    expect(await usage.add('acct:u', may, -2)).toBe(3);
    expect(await usage.add('acct:u', june, 1)).toBe(1);
    expect([await usage.count('acct:u', may), await usage.count('acct:u', june)]).toEqual([3, 1]);
  });

  it('sign-in attempts: counted up to the limit in a window the first attempt opens; then refused until it ends; a withdrawn attempt frees its place', async () => {
    const attempts = new DashboardSignInAttempts(db);
    const t0 = at('2031-05-10T12:00:00.000Z');
    const end = at('2031-05-10T12:15:00.000Z');
    for (let i = 0; i < 3; i++) expect(await attempts.count('ip:a', new Date(t0.getTime() + i * 1000), FIFTEEN_MINUTES, 3)).toEqual({ windowEnd: end });
    expect(await attempts.count('ip:a', at('2031-05-10T12:14:59.000Z'), FIFTEEN_MINUTES, 3)).toEqual({ liftsAt: end });
    await attempts.withdraw('ip:a', end);
    expect(await attempts.count('ip:a', at('2031-05-10T12:14:59.000Z'), FIFTEEN_MINUTES, 3)).toEqual({ windowEnd: end });
    // The window has ended (its document not yet purged): the next attempt opens another, and a late withdrawal leaves it alone.
    const later = at('2031-05-10T12:15:00.000Z');
    expect(await attempts.count('ip:a', later, FIFTEEN_MINUTES, 3)).toEqual({ windowEnd: at('2031-05-10T12:30:00.000Z') });
    await attempts.withdraw('ip:a', end);
    expect(await db.collection('dashboard_sign_in_attempts').findOne({ _id: 'ip:a' as never })).toEqual({ _id: 'ip:a', n: 1, expires_at: at('2031-05-10T12:30:00.000Z') });
  });

  describe('with writers in two processes', () => {
    const writers = <R>(job: Omit<LimitWriterJob, 'uri' | 'db' | 'name'>) =>
      runWritersTogether<R, LimitWriterJob>(['a', 'b'].map((name) => ({ uri: process.env.MONGODB_URI!, db: db.databaseName, name, ...job })), 'limit-writer.ts');

    it('limits: 2 × 200 calls at once never admit more than the quota; the counts are the calls admitted; after the give-backs exactly the quota fills', async () => {
      // Burst 300 (blocks of up to 3 calls) and quota 250: both limits are reached from both processes.
      const policy: LimitPolicy = { bucket: 'acct:two', burstLimit: 300, quotaLimit: 250, countUsage: true };
      const [a, b] = await writers<AdmitTally>({ op: 'admit', count: 200, policy });
      expect([...a.errors, ...b.errors]).toEqual([]);
      const admitted = a.admitted + b.admitted;
      expect(admitted).toBeLessThanOrEqual(250);
      const period = billingPeriodAt(new Date());
      const burstCount = async () => (await db.collection('limit_windows').findOne({ _id: 'acct:two' as never }))?.n;
      expect([await burstCount(), await new LimitUsage(db).count(policy.bucket, period)]).toEqual([admitted, admitted]);
      // The writers gave back what they held (as at shutdown): a third process fills the quota exactly.
      const third = new BlockLimiter(new LimitWindows(db), new LimitUsage(db), () => new Date());
      let more = 0;
      while (await third.admit(policy).then(() => true, () => false)) more++;
      await third.close();
      expect(admitted + more).toBe(250);
      expect([await burstCount(), await new LimitUsage(db).count(policy.bucket, period)]).toEqual([250, 250]);
    });

    it('the sign-in throttle: 2 × 20 attempts at once on one scope count exactly its limit, also when they reopen an ended window', async () => {
      const throttle = { scope: 'email-ip:two', limit: 5, windowMs: FIFTEEN_MINUTES };
      const [a, b] = await writers<number>({ op: 'attempt', count: 20, throttle });
      expect(a + b).toBe(5);
      // The window has ended and the store's TTL monitor, which has found it, waits: the attempts race to open the next one.
      const monitor = await holdTtlMonitor(db, 'dashboard_sign_in_attempts');
      let c: number, d: number;
      try {
        await db.collection('dashboard_sign_in_attempts').updateOne({ _id: throttle.scope as never }, { $set: { expires_at: new Date(Date.now() - 1000) } });
        await monitor.reached;
        [c, d] = await writers<number>({ op: 'attempt', count: 20, throttle });
      } finally {
        await monitor.open();
      }
      expect(c + d).toBe(5);
      // The monitor, let go, reads the document again: the new window has not ended, and stays.
      await ttlMonitorPass(db);
      expect(await db.collection('dashboard_sign_in_attempts').findOne({ _id: throttle.scope as never })).toMatchObject({ n: 5 });
    });
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from 'mongodb';

/** A bound, not a measure: the test setup runs the monitor every second (global-setup.ts). */
const WAIT_BOUND_MS = 60_000;

/** Polls `reached` every 100 ms until it holds, failing with `what` after WAIT_BOUND_MS. */
async function until(what: string, reached: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_BOUND_MS;
  while (!(await reached())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${WAIT_BOUND_MS} ms`);
    await sleep(100);
  }
}

const passes = async (db: Db) => Number((await db.admin().command({ serverStatus: 1 })).metrics?.ttl?.passes);

/**
 * Resolves once the store's TTL monitor has made a whole pass that began after this call: serverStatus'
 * `metrics.ttl.passes` up by 2, as MongoDB's own tests wait (the first may have been under way).
 */
export async function ttlMonitorPass(db: Db): Promise<void> {
  const before = await passes(db);
  if (!Number.isFinite(before)) throw new Error('serverStatus reports no metrics.ttl.passes: this store has no TTL monitor');
  await until('no two TTL monitor passes', async () => (await passes(db)) >= before + 2);
}

/**
 * Holds the TTL monitor once its scan of `<db>.<collection>` has found expired documents, before it deletes any
 * (the embedded store's fail point, as MongoDB's test commands): `reached` resolves once it is held there.
 */
export async function holdTtlMonitor(db: Db, collection: string): Promise<{ reached: Promise<void>; open(): Promise<void> }> {
  const failPoint = async (mode: 'alwaysOn' | 'off') =>
    Number((await db.admin().command({ configureFailPoint: 'hangTTLMonitorBeforeDeletes', mode, data: { ns: `${db.databaseName}.${collection}` } })).count);
  await failPoint('alwaysOn');
  return {
    reached: until('the TTL monitor was not held', async () => (await failPoint('alwaysOn')) > 0),
    open: async () => void (await failPoint('off')),
  };
}

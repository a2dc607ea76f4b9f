/**
 * A writer process for test/integration/limit-store.test.ts: `count` calls at once of this
 * process's own limiter (`admit`, then it gives back what it holds, as at shutdown) or sign-in
 * throttle (`attempt`); writer-process.ts says how it is started and answers.
 * Usage: tsx limit-writer.ts '<json: LimitWriterJob>'
 */
import type { Db } from 'mongodb';
import { systemClock } from '../../src/domain/clock';
import { LimitRejection, type LimitPolicy } from '../../src/domain/limits/admission';
import { BlockLimiter } from '../../src/persistence/block-limiter';
import { DashboardSignInAttempts } from '../../src/persistence/dashboard-sign-in-attempts';
import { LimitUsage } from '../../src/persistence/limit-usage';
import { LimitWindows } from '../../src/persistence/limit-windows';
import { serveWriterJob } from './writer-process';

export interface LimitWriterJob {
  uri: string;
  db: string;
  name: string;
  op: keyof typeof operations;
  count: number;
  /** `admit`: finite limits (the job travels as JSON). */
  policy?: LimitPolicy;
  /** `attempt`: the throttled scope and its limit per window. */
  throttle?: { scope: string; limit: number; windowMs: number };
}

/** What an `admit` writer saw: calls admitted, and any error other than a limit's refusal. */
export interface AdmitTally {
  admitted: number;
  errors: string[];
}

const operations = {
  async admit(db: Db, job: LimitWriterJob): Promise<AdmitTally> {
    const limiter = new BlockLimiter(new LimitWindows(db), new LimitUsage(db), systemClock);
    const results = await Promise.allSettled(Array.from({ length: job.count }, () => limiter.admit(job.policy!)));
    await limiter.close();
    const errors = results.flatMap((r) => (r.status === 'rejected' && !(r.reason instanceof LimitRejection) ? [String(r.reason)] : []));
    return { admitted: results.filter((r) => r.status === 'fulfilled').length, errors };
  },

  /** Attempts counted. */
  async attempt(db: Db, job: LimitWriterJob): Promise<number> {
    const attempts = new DashboardSignInAttempts(db);
    const { scope, limit, windowMs } = job.throttle!;
    const results = await Promise.all(Array.from({ length: job.count }, () => attempts.count(scope, new Date(), windowMs, limit)));
    return results.filter((r) => 'windowEnd' in r).length;
  },
};

serveWriterJob<LimitWriterJob>((db, job) => operations[job.op](db, job));

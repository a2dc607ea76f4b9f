import { randomBytes } from 'node:crypto';
import { Collection, Db } from 'mongodb';
import type { ExpirySweepers } from './ttl';

interface SignInAttemptDoc {
  _id: string;
  /** What is throttled: `email-ip:<ip>:<email>`, `ip:<ip>`, `signup-ip:<ip>`. */
  scope: string;
  at: Date;
  expires_at: Date;
}

/**
 * `dashboard_sign_in_attempts`: one document per attempt that counts against a throttle.
 * Only plain inserts, deletes and counts: FerretDB's `$inc` and other read-modify-write updates
 * are not atomic under concurrency, whereas "insert, then count what is there" is, because every
 * attempt sees at least its own insert and all earlier ones (see DashboardAuthService.reserve).
 */
export class DashboardSignInAttempts {
  private readonly col: Collection<SignInAttemptDoc>;

  constructor(db: Db) {
    this.col = db.collection<SignInAttemptDoc>('dashboard_sign_in_attempts');
  }

  async ensureIndexes(expiry: ExpirySweepers): Promise<void> {
    await this.col.createIndex({ scope: 1, at: 1 });
    await expiry.ensureExpiry(this.col, 'expires_at');
  }

  /** Records one attempt; returns its id so that it can be withdrawn. */
  async record(scope: string, at: Date, expiresAt: Date): Promise<string> {
    const _id = randomBytes(16).toString('hex');
    await this.col.insertOne({ _id, scope, at, expires_at: expiresAt });
    return _id;
  }

  countSince(scope: string, since: Date): Promise<number> {
    return this.col.countDocuments({ scope, at: { $gt: since } });
  }

  /** The time of the n-th oldest attempt (1-based) still inside the window: when it leaves, the throttle lifts. */
  async nthOldestSince(scope: string, since: Date, n: number): Promise<Date | null> {
    const doc = await this.col
      .find({ scope, at: { $gt: since } })
      .sort({ at: 1 })
      .skip(Math.max(0, n - 1))
      .limit(1)
      .next();
    return doc?.at ?? null;
  }

  async withdraw(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.col.deleteMany({ _id: { $in: [...ids] } });
  }
}

import { randomBytes } from 'node:crypto';
import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { insertWithinCap } from './store-primitives';

interface SignInAttemptDoc extends ExpiringDoc {
  /** What is throttled: `email-ip:<ip>:<email>`, `ip:<ip>`, `signup-ip:<ip>`. */
  scope: string;
  at: Date;
}

/** One document per counted attempt, inserted within the throttle's limit (insert-within-cap.ts). */
export class DashboardSignInAttempts extends ExpiringCollection<SignInAttemptDoc>('dashboard_sign_in_attempts', [{ scope: 1, at: 1 }]) {
  /** Counts an attempt: its id (to withdraw it), or, over the limit, nothing counted and when it lifts. */
  async reserve(scope: string, at: Date, windowMs: number, limit: number): Promise<{ id: string } | { liftsAt: Date }> {
    const _id = randomBytes(16).toString('hex');
    const since = new Date(at.getTime() - windowMs);
    const result = await insertWithinCap(this.col, { _id, scope, at, expires_at: new Date(at.getTime() + windowMs) }, { scope, at: { $gt: since } }, limit);
    if (result.inserted) return { id: _id };
    // The (count - limit)-th oldest attempt still inside the window: when it leaves, the throttle lifts.
    const lifting = await this.col
      .find({ scope, at: { $gt: since } })
      .sort({ at: 1 })
      .skip(Math.max(0, result.count - limit - 1))
      .limit(1)
      .next();
    return { liftsAt: new Date((lifting?.at ?? at).getTime() + windowMs) };
  }

  async withdraw(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.col.deleteMany({ _id: { $in: [...ids] } });
  }
}

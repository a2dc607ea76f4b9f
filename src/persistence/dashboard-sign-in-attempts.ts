import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';
import { unlessIdTaken } from './mongo';

/**
 * `_id`: what is throttled (`email-ip:<ip>:<email>`, `ip:<ip>`, `signup-ip:<ip>`); `n`: the attempts
 * counted in its window, which the first attempt after the last one ended opens, and which ends at `expires_at`.
 */
interface AttemptsDoc extends ExpiringDoc {
  n: number;
}

/** One counter per throttled scope, counted by a conditional upsert. */
export class DashboardSignInAttempts extends ExpiringCollection<AttemptsDoc>('dashboard_sign_in_attempts') {
  /** Counts an attempt: the end of the window it counts in (to withdraw it), or, at the limit, nothing counted and when the window ends. */
  async count(scope: string, now: Date, windowMs: number, limit: number): Promise<{ windowEnd: Date } | { liftsAt: Date }> {
    // A window that has ended (its document not purged yet) goes first: this attempt may open the next.
    await this.col.deleteOne({ _id: scope, expires_at: { $lte: now } });
    const filter = { _id: scope, n: { $lt: limit } };
    const update = { $inc: { n: 1 }, $setOnInsert: { expires_at: new Date(now.getTime() + windowMs) } };
    // The upsert's insert meets the `_id` when the window is at the limit, or on MongoDB when a concurrent first attempt
    // inserted it: then the update alone decides.
    const doc =
      (await unlessIdTaken(() => this.col.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' }))) ??
      (await this.col.findOneAndUpdate(filter, update, { returnDocument: 'after' }));
    if (doc) return { windowEnd: doc.expires_at };
    return { liftsAt: (await this.col.findOne({ _id: scope }))?.expires_at ?? now };
  }

  /** Takes back an attempt counted in the window ending at `windowEnd`; nothing once another window has replaced it. */
  async withdraw(scope: string, windowEnd: Date): Promise<void> {
    await this.col.updateOne({ _id: scope, expires_at: windowEnd }, { $inc: { n: -1 } });
  }
}

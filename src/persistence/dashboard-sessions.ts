import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';

/** `_id`: the session id's SHA-256 (hashSecretToken), so a database leak hands out no live session. */
export interface DashboardSessionDoc extends ExpiringDoc {
  account_id: string;
  /** Synchronizer token that every state-changing dashboard form must echo. */
  csrf_token: string;
  created_at: Date;
}

/** `dashboard_sessions`: one per signed-in browser; expiry is checked on every read (the TTL index's deletion may lag). */
export class DashboardSessions extends ExpiringCollection<DashboardSessionDoc>('dashboard_sessions', [{ account_id: 1 }]) {
  async insert(doc: DashboardSessionDoc): Promise<void> {
    await this.col.insertOne(doc);
  }

  findValid(idHash: string, now: Date): Promise<DashboardSessionDoc | null> {
    return this.col.findOne({ _id: idHash, expires_at: { $gt: now } });
  }

  async delete(idHash: string): Promise<void> {
    await this.col.deleteOne({ _id: idHash });
  }

  /** Every session of the account (the `{account_id}` index on both stores). */
  async deleteForAccount(accountId: string): Promise<void> {
    await this.col.deleteMany({ account_id: accountId });
  }
}

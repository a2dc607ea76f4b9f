import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';

/** `_id`: the token's SHA-256 (portal-session.ts), so a database leak hands out no live session. */
export interface PortalSessionDoc extends ExpiringDoc {
  account_id: string;
  tenant_id: string;
  read_only: boolean;
  created_at: Date;
}

/** `portal_sessions`: one per token handed out; expiry is checked on every read (the TTL index's deletion may lag). */
export class PortalSessions extends ExpiringCollection<PortalSessionDoc>('portal_sessions', [{ account_id: 1 }]) {
  async insert(doc: PortalSessionDoc): Promise<void> {
    await this.col.insertOne(doc);
  }

  findValid(tokenHash: string, now: Date): Promise<PortalSessionDoc | null> {
    return this.col.findOne({ _id: tokenHash, expires_at: { $gt: now } });
  }

  /** Every session of one tenant (through the `{account_id}` index): how many were revoked. */
  async deleteForTenant(accountId: string, tenantId: string): Promise<number> {
    return (await this.col.deleteMany({ account_id: accountId, tenant_id: tenantId })).deletedCount;
  }

  /** Every session of the account (the `{account_id}` index on both stores): how many were revoked. */
  async deleteForAccount(accountId: string): Promise<number> {
    return (await this.col.deleteMany({ account_id: accountId })).deletedCount;
  }
}

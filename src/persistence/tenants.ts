import type { Filter } from 'mongodb';
import type { TenantCaps } from '../domain/webhooks/tenant';
import { accountCountsOf } from './account-counts';
import { isDuplicateKeyError } from './mongo';
import { StoreCollection } from './store-collection';

export interface TenantDoc {
  /** tenantKey(account_id, tenant_id). */
  _id: string;
  account_id: string;
  tenant_id: string;
  /** Places taken by its endpoints, the count its cap is checked against (one taken before each insert). */
  endpoints: number;
  created_at: Date;
}

/** Why a place was refused: the tenant holds its most endpoints, or the account its most tenants. */
export type TenantPlaceRefusal = 'tenant_full' | 'tenants_full';

/** One string per (account, tenant), for `_id`s and single-field indexes: neither id can hold a `/`. */
export const tenantKey = (accountId: string, tenantId: string): string => `${accountId}/${tenantId}`;

/**
 * `tenants`: a document per tenant of an account while it has endpoints, its endpoint count a counter taken with a
 * conditional `$inc` before each endpoint insert (as account-counts.ts does for the account): concurrent creates never pass
 * either cap. The tenant's first place also takes one of the account's `tenants` places; its last given back returns it.
 */
export class Tenants extends StoreCollection<TenantDoc>('tenants', [{ account_id: 1, created_at: -1, _id: -1 }]) {
  private readonly counts = accountCountsOf(this.db);

  /** One endpoint's place in the tenant (made, within the account's cap, if it has none), or why not. */
  async takePlace(accountId: string, tenantId: string, caps: TenantCaps, now: Date): Promise<TenantPlaceRefusal | null> {
    const _id = tenantKey(accountId, tenantId);
    // Each turn ends but when a racing create made the tenant, or a racing delete removed it: each is progress elsewhere.
    for (;;) {
      const taken = await this.col.updateOne({ _id, endpoints: { $lt: caps.endpointsPerTenant } }, { $inc: { endpoints: 1 } });
      if (taken.matchedCount === 1) return null;
      if (await this.col.findOne({ _id }, { projection: { _id: 1 } })) return 'tenant_full';
      try {
        const made = await this.counts.insertIfRoom(accountId, 'tenants', caps.tenantsPerAccount, () =>
          this.col.insertOne({ _id, account_id: accountId, tenant_id: tenantId, endpoints: 1, created_at: now }),
        );
        return made ? null : 'tenants_full';
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
  }

  /** After its endpoint is deleted (or its insert failed): the tenant goes when no place is left, a create that took one since keeping it. */
  async giveBack(accountId: string, tenantId: string): Promise<void> {
    const _id = tenantKey(accountId, tenantId);
    await this.col.updateOne({ _id }, { $inc: { endpoints: -1 } });
    const gone = await this.col.deleteOne({ _id, endpoints: { $lte: 0 } });
    if (gone.deletedCount === 1) await this.counts.giveBack(accountId, 'tenants');
  }

  find(accountId: string, tenantId: string): Promise<TenantDoc | null> {
    return this.col.findOne({ _id: tenantKey(accountId, tenantId) });
  }

  /** Newest first; the cursor is the last item's (created_at, _id). An account holds at most its cap of tenants. */
  list(accountId: string, limit: number, after?: { createdAt: Date; id: string }): Promise<TenantDoc[]> {
    const filter: Filter<TenantDoc> = { account_id: accountId };
    if (after) filter.$or = [{ created_at: { $lt: after.createdAt } }, { created_at: after.createdAt, _id: { $lt: after.id } }];
    return this.col.find(filter).sort({ created_at: -1, _id: -1 }).limit(limit).toArray();
  }
}

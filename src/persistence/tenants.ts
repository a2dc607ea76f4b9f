import type { Filter } from 'mongodb';
import { ownerOf, type RecordOwner, type TenantCaps } from '../domain/webhooks/tenant';
import { randomBytes } from 'node:crypto';
import { accountTenantPlacesOf } from './account-tenant-places';
import { isDuplicateKeyError } from './mongo';
import { StoreCollection } from './store-collection';

export interface TenantDoc {
  /** tenantKey(account_id, tenant_id). */
  _id: string;
  account_id: string;
  tenant_id: string;
  /** Places taken by its endpoints, the count its cap is checked against (one taken before each insert). */
  endpoints: number;
  /** This incarnation of the tenant (a document made after it was removed is another): the account's place names it. */
  place: string;
  /** Set once the account's place is known to be this incarnation's: a create joining it then needs no more. */
  placed: boolean;
  created_at: Date;
}

/** Why a place was refused: the tenant holds its most endpoints, or the account its most tenants. */
export type TenantPlaceRefusal = 'tenant_full' | 'tenants_full';

/** One string per (account, tenant), for `_id`s and single-field indexes: neither id can hold a `/`. */
export const tenantKey = (accountId: string, tenantId: string): string => `${accountId}/${tenantId}`;

/** The filter of an endpoint's or event's owner: its account, and for a tenant's caller its tenant (`tenant_id` on both). */
export function ownedBy(owner: RecordOwner): { account_id: string; tenant_id?: string } {
  const { accountId, tenantId } = ownerOf(owner);
  return { account_id: accountId, ...(tenantId !== undefined && { tenant_id: tenantId }) };
}

/**
 * `tenants`: a document per tenant of an account while it has endpoints, its endpoint count a counter taken with a
 * conditional `$inc` before each endpoint insert (as account-counts.ts does for the account): concurrent creates never pass
 * either cap. The tenant holds one of the account's places (account-tenant-places.ts) while its document exists.
 */
export class Tenants extends StoreCollection<TenantDoc>('tenants', [{ account_id: 1, created_at: -1, _id: -1 }]) {
  private readonly places = accountTenantPlacesOf(this.db);

  /**
   * One endpoint's place in the tenant, or why not. The tenant's document is made by the first place taken (an upsert on
   * its `_id`, so concurrent first creates make one); until it is marked placed, every create that joined it makes sure the
   * tenant holds the account's place, which takes one only if it holds none: one place per tenant, whatever the concurrency.
   */
  async takePlace(accountId: string, tenantId: string, caps: TenantCaps, now: Date): Promise<TenantPlaceRefusal | null> {
    const _id = tenantKey(accountId, tenantId);
    let doc: TenantDoc | null;
    // Each turn ends but when a racing create made the tenant, or a racing delete removed it: each is progress elsewhere.
    for (;;) {
      try {
        doc = await this.col.findOneAndUpdate(
          { _id, endpoints: { $lt: caps.endpointsPerTenant } },
          { $inc: { endpoints: 1 }, $setOnInsert: { account_id: accountId, tenant_id: tenantId, place: randomBytes(12).toString('base64url'), placed: false, created_at: now } },
          { upsert: true, returnDocument: 'after' },
        );
        if (doc) break;
      } catch (err) {
        // The upsert's insert met the tenant: full, or (MongoDB) made by another create first.
        if (!isDuplicateKeyError(err)) throw err;
        const full = await this.col.findOne({ _id, endpoints: { $gte: caps.endpointsPerTenant } }, { projection: { _id: 1 } });
        if (full) return 'tenant_full';
      }
    }
    // Only a document made unplaced waits for the account's place (a document without the field is taken as placed).
    if (doc.placed !== false) return null;
    if (!(await this.places.hold(accountId, tenantId, doc.place, caps.tenantsPerAccount))) {
      await this.giveBack(accountId, tenantId);
      return 'tenants_full';
    }
    await this.col.updateOne({ _id, place: doc.place }, { $set: { placed: true } });
    return null;
  }

  /** After its endpoint is deleted (or its insert failed): the tenant goes when no place is left, a create that took one since keeping it. */
  async giveBack(accountId: string, tenantId: string): Promise<void> {
    const _id = tenantKey(accountId, tenantId);
    await this.col.updateOne({ _id }, { $inc: { endpoints: -1 } });
    const gone = await this.col.findOneAndDelete({ _id, endpoints: { $lte: 0 } }, { projection: { place: 1 } });
    if (gone?.place) await this.places.giveBack(accountId, tenantId, gone.place);
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

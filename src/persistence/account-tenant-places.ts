import { createHash } from 'node:crypto';
import type { Db } from 'mongodb';
import { isDuplicateKeyError } from './mongo';

/**
 * The account's id; `n`: how many tenants hold one of its places; `held`: who holds each, by the tenant's field name
 * (fieldOf), the incarnation of the tenant document that holds it (TenantDoc.place).
 */
interface AccountTenantPlacesDoc {
  _id: string;
  n: number;
  held: Record<string, string>;
}

/**
 * A tenant's field: 128 bits of its id's SHA-256, base64url (no `.` or `$` of an id can make a path of it, and each entry
 * stays ~50 bytes whatever the id's length: 100,000 tenants, as many as MAX_ENDPOINTS_PER_ACCOUNT's highest setting lets
 * exist, fit in ~5 MB of the 16 MB a document may hold).
 */
const fieldOf = (tenantId: string) => `held.${createHash('sha256').update(tenantId).digest().subarray(0, 16).toString('base64url')}`;

/**
 * `account_tenant_places`: one document per account, its tenant places and which tenant holds each, written by single-document
 * conditional updates. Taking a place is idempotent per tenant (a tenant holding one keeps it; a create joining never takes a
 * second), so concurrent first creates of one tenant take exactly one place. Each place names the incarnation of the tenant
 * document it is for, so that the give-back of a tenant document removed cannot take the place of the one made after it.
 */
export function accountTenantPlacesOf(db: Db) {
  const col = db.collection<AccountTenantPlacesDoc>('account_tenant_places');
  const holderOf = async (accountId: string, field: string) => {
    const doc = await col.findOne({ _id: accountId }, { projection: { n: 1, [field]: 1 } });
    return { n: doc?.n ?? 0, holder: doc?.held?.[field.slice('held.'.length)] };
  };

  return {
    /**
     * Makes `place` (a tenant document's incarnation) hold the tenant's place: kept if it holds it, passed on from an
     * incarnation that is gone (there is one tenant document at a time), or one more place if the account has fewer than
     * `max`. False: the tenant holds none and the account is full.
     */
    async hold(accountId: string, tenantId: string, place: string, max: number): Promise<boolean> {
      const field = fieldOf(tenantId);
      // Each turn ends but when another write to the account's places landed between a read and a conditional update.
      for (;;) {
        const { n, holder } = await holderOf(accountId, field);
        if (holder === place) return true;
        if (holder !== undefined) {
          // A removed incarnation's, its give-back not yet come: this one takes it over, the count unchanged.
          if ((await col.updateOne({ _id: accountId, [field]: holder }, { $set: { [field]: place } })).matchedCount === 1) return true;
          continue;
        }
        if (n >= max) return false;
        try {
          // At the cap, or with the tenant come in meanwhile, the upsert's insert meets the `_id`.
          await col.updateOne({ _id: accountId, [field]: { $exists: false }, n: { $not: { $gte: max } } }, { $inc: { n: 1 }, $set: { [field]: place } }, { upsert: true });
          return true;
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
        }
      }
    },

    /** Gives back the tenant's place if `place` (a removed tenant document's incarnation) still holds it. */
    async giveBack(accountId: string, tenantId: string, place: string): Promise<void> {
      const field = fieldOf(tenantId);
      await col.updateOne({ _id: accountId, [field]: place }, { $unset: { [field]: '' }, $inc: { n: -1 } });
    },
  };
}

import type { Filter } from 'mongodb';
import type { Destination } from '../domain/webhooks/destination';
import type { DisabledReason } from '../domain/webhooks/endpoint-health';
import type { EndpointOrdering } from '../domain/webhooks/fifo-order';
import type { RetiredSecret } from '../domain/webhooks/secret-rotation';
import { DEFAULT_TENANT_CAPS, type RecordOwner, type TenantCaps } from '../domain/webhooks/tenant';
import { accountCountsOf } from './account-counts';
import { cacheInvalidationsOf } from './cache-invalidations';
import { StoreCollection } from './store-collection';
import { ownedBy, Tenants, type TenantPlaceRefusal } from './tenants';

export interface EndpointDoc {
  _id: string;
  account_id: string;
  /** The tenant it belongs to (tenant.ts); absent or null: the account's own. */
  tenant_id?: string | null;
  /** The HTTPS URL; for a broker endpoint, its destination's label (destinationLabel), which deliveries and operational events show. */
  url: string;
  /** A broker endpoint's destination (absent or null: HTTPS to `url`). */
  destination?: StoredDestination | null;
  events: string[];
  description: string;
  /** AES-256-GCM sealed `whsec_...` (see secret-box.ts); never stored or logged in clear. */
  secret_sealed: string;
  /** Replaced secrets still in their rotation grace period, newest first (secret-rotation.ts); absent before any rotation. */
  previous_secrets?: RetiredSecret[];
  disabled: boolean;
  disabled_reason: DisabledReason | null;
  /** Its deliveries wait instead of being attempted (absent = false); read by every attempt, so not cache-neutral. */
  paused?: boolean;
  /** Deliveries started per second and POSTs in flight at once (endpoint-limits.ts); absent or null: unlimited. */
  rate_limit_per_s?: number | null;
  max_in_flight?: number | null;
  /** `fifo`: its deliveries are made one at a time in ingest order (fifo-order.ts); absent: unordered. */
  ordering?: EndpointOrdering;
  created_at: Date;
  updated_at: Date;
}

export type EndpointChanges = Partial<Pick<EndpointDoc, 'url' | 'destination' | 'events' | 'description' | 'disabled' | 'disabled_reason' | 'paused' | 'rate_limit_per_s' | 'max_in_flight' | 'ordering' | 'secret_sealed' | 'previous_secrets' | 'tenant_id'>>;

/** Why an insert was refused: the account holds its most endpoints, or a tenant cap (tenants.ts). */
export type EndpointInsertRefusal = 'account_full' | TenantPlaceRefusal;

/** Endpoint fields that no cached list is read for: changing only these announces nothing. */
const CACHE_NEUTRAL_FIELDS: ReadonlySet<string> = new Set<keyof EndpointChanges>(['description', 'disabled_reason']);

/** Credentials sealed (secret-box.ts) as one JSON object, like signing secrets; `credential_fields` says which are set. */
export type StoredDestination = Destination & { credentials_sealed: string | null; credential_fields: string[] };

export class Endpoints extends StoreCollection<EndpointDoc>(
  'endpoints',
  [{ account_id: 1, created_at: -1, _id: -1 }],
  [{ account_id: 1, tenant_id: 1, created_at: -1, _id: -1 }],
) {
  private readonly invalidations = cacheInvalidationsOf(this.db);
  private readonly counts = accountCountsOf(this.db);
  private readonly tenants = new Tenants(this.db);

  /**
   * Inserts `doc` if its account has fewer than `max` endpoints, disabled included, and its tenant (if any) room under
   * `tenantCaps` (null: inserted); exact under concurrent creates. The tenant's place is taken first, given back if refused.
   */
  async insertIfRoom(doc: EndpointDoc, max: number, tenantCaps: TenantCaps = DEFAULT_TENANT_CAPS): Promise<EndpointInsertRefusal | null> {
    const tenantId = doc.tenant_id ?? null;
    if (tenantId !== null) {
      const refused = await this.tenants.takePlace(doc.account_id, tenantId, tenantCaps, doc.created_at);
      if (refused) return refused;
    }
    let inserted = false;
    try {
      inserted = await this.counts.insertIfRoom(doc.account_id, 'endpoints', max, () => this.col.insertOne(doc));
    } finally {
      if (!inserted && tenantId !== null) await this.tenants.giveBack(doc.account_id, tenantId);
    }
    if (!inserted) return 'account_full';
    await this.invalidations.append({ kind: 'endpoints_changed', account_id: doc.account_id });
    return null;
  }

  /** Moves `current` to tenant `to` (null: the account's own) if it still belongs where it was read, within `to`'s caps. */
  async moveToTenant(current: EndpointDoc, to: string | null, tenantCaps: TenantCaps, at: Date): Promise<EndpointDoc | TenantPlaceRefusal | null> {
    const from = current.tenant_id ?? null;
    if (to !== null) {
      const refused = await this.tenants.takePlace(current.account_id, to, tenantCaps, at);
      if (refused) return refused;
    }
    let moved: EndpointDoc | null = null;
    try {
      moved = await this.update(current, { tenant_id: to }, at, { tenant_id: from });
    } finally {
      const placeLeft = moved ? from : to;
      if (placeLeft !== null) await this.tenants.giveBack(current.account_id, placeLeft);
    }
    return moved;
  }

  /** The owner's endpoint (a tenant's caller: of that tenant only), else null. */
  find(owner: RecordOwner, id: string): Promise<EndpointDoc | null> {
    return this.col.findOne({ _id: id, ...ownedBy(owner) });
  }

  /** Newest first; the cursor is the last item's (created_at, _id). With `tenantId`, that tenant's only (an index search). */
  async list(accountId: string, limit: number, after?: { createdAt: Date; id: string }, tenantId?: string): Promise<EndpointDoc[]> {
    const filter: Filter<EndpointDoc> = { account_id: accountId, ...(tenantId !== undefined && { tenant_id: tenantId }) };
    if (after) {
      filter.$or = [{ created_at: { $lt: after.createdAt } }, { created_at: after.createdAt, _id: { $lt: after.id } }];
    }
    return this.col.find(filter).sort({ created_at: -1, _id: -1 }).limit(limit).toArray();
  }

  /** Every endpoint of the account, disabled ones included (an index search on both stores, mongo.ts). */
  countForAccount(accountId: string): Promise<number> {
    return this.col.countDocuments({ account_id: accountId });
  }

  listEnabled(accountId: string): Promise<EndpointDoc[]> {
    return this.col.find({ account_id: accountId, disabled: false }).sort({ created_at: 1, _id: 1 }).toArray();
  }

  /**
   * Sets `changes` on `current` (the document the caller just read, and checked the owner of) if it still holds `asRead`
   * (for a tenant's caller, its tenant: ownedBy): the document after, or null (deleted, or another change landed first). Any
   * change drops the cached lists except one that touches only CACHE_NEUTRAL_FIELDS (a new field invalidates).
   */
  async update(current: EndpointDoc, changes: EndpointChanges, at: Date, asRead: Filter<EndpointDoc> = {}): Promise<EndpointDoc | null> {
    const result = await this.col.updateOne({ ...asRead, _id: current._id }, { $set: { ...changes, updated_at: at } });
    if (result.matchedCount === 0) return null;
    if (Object.keys(changes).some((field) => !CACHE_NEUTRAL_FIELDS.has(field))) {
      await this.invalidations.append({ kind: 'endpoints_changed', account_id: current.account_id });
    }
    return { ...current, ...changes, updated_at: at };
  }

  /** The owner's endpoint (a tenant's caller: of that tenant only, as it is when deleted); false if there is none. */
  async delete(owner: RecordOwner, id: string): Promise<boolean> {
    // Only what the give-backs need: not the sealed credentials.
    const deleted = await this.col.findOneAndDelete({ _id: id, ...ownedBy(owner) }, { projection: { account_id: 1, tenant_id: 1 } });
    if (!deleted) return false;
    const accountId = deleted.account_id;
    await this.counts.giveBack(accountId, 'endpoints');
    if (deleted.tenant_id) await this.tenants.giveBack(accountId, deleted.tenant_id);
    await this.invalidations.append({ kind: 'endpoints_changed', account_id: accountId });
    return true;
  }
}

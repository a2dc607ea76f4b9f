import type { Filter } from 'mongodb';
import type { DisabledReason } from '../domain/webhooks/endpoint-health';
import type { EndpointOrdering } from '../domain/webhooks/fifo-order';
import type { RetiredSecret, SecretSet } from '../domain/webhooks/secret-rotation';
import { cacheInvalidationsOf } from './cache-invalidations';
import { StoreCollection } from './store-collection';
import { AppendLog, insertWithinCap, type ExpirySweepers } from './store-primitives';

export interface EndpointDoc {
  _id: string;
  account_id: string;
  url: string;
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

export type EndpointChanges = Partial<Pick<EndpointDoc, 'url' | 'events' | 'description' | 'disabled' | 'disabled_reason' | 'paused' | 'rate_limit_per_s' | 'max_in_flight' | 'ordering' | 'secret_sealed' | 'previous_secrets'>>;

/** Sealed like the endpoint's own fields (secret-box.ts). */
interface SecretSetDoc extends Required<SecretSet> {
  /** `<endpointId>#<n>`: the set after the endpoint's n-th rotation, written by exactly one rotation. */
  _id: string;
  endpoint_id: string;
  n: number;
}

/** A secret set below the log's head, its secrets erased (Endpoints.eraseSecretsBelow). */
const ERASED = '';

/** Endpoint fields that no cached list is read for: changing only these announces nothing. */
const CACHE_NEUTRAL_FIELDS: ReadonlySet<string> = new Set<keyof EndpointChanges>(['description', 'disabled_reason']);

export class Endpoints extends StoreCollection<EndpointDoc>('endpoints', [{ account_id: 1, created_at: -1, _id: -1 }]) {
  private readonly invalidations = cacheInvalidationsOf(this.db);
  private readonly secretSetsCol = this.db.collection<SecretSetDoc>('endpoint_secret_sets');
  /** An append log per endpoint, an entry per rotation: of two rotations at once the second derives from the first, so no secret is lost. */
  private readonly secretSets = new AppendLog<SecretSet, SecretSetDoc>(this.secretSetsCol, {
    toDoc: (endpointId, n, set) => ({ endpoint_id: endpointId, n, secret_sealed: set.secret_sealed, previous_secrets: set.previous_secrets ?? [] }),
    fromDoc: (doc) => ({ secret_sealed: doc.secret_sealed, previous_secrets: doc.previous_secrets }),
    projection: { secret_sealed: 1, previous_secrets: 1 },
  });

  override async ensureIndexes(expiry?: ExpirySweepers): Promise<void> {
    await super.ensureIndexes(expiry);
    await this.secretSetsCol.createIndex({ endpoint_id: 1 });
  }

  /** Inserts `doc` unless its account would then have more than `max` endpoints, disabled included (false); exact under concurrent creates. */
  async insertWithinCap(doc: EndpointDoc, max: number): Promise<boolean> {
    const result = await insertWithinCap(this.col, doc, { account_id: doc.account_id }, max);
    // Logged also when an insert was taken back: a list read before its removal may hold the endpoint.
    if (result.inserted || result.tookBack) await this.invalidations.append({ kind: 'endpoints_changed', account_id: doc.account_id });
    return result.inserted;
  }

  async find(accountId: string, id: string): Promise<EndpointDoc | null> {
    const doc = await this.col.findOne({ _id: id });
    return doc && doc.account_id === accountId ? doc : null;
  }

  /** Newest first; the cursor is the last item's (created_at, _id). */
  async list(accountId: string, limit: number, after?: { createdAt: Date; id: string }): Promise<EndpointDoc[]> {
    const filter: Filter<EndpointDoc> = { account_id: accountId };
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

  /** `current` is the document the caller just read (and checked the owner of). */
  async update(current: EndpointDoc, changes: EndpointChanges, at: Date): Promise<EndpointDoc> {
    await this.col.updateOne({ _id: current._id }, { $set: { ...changes, updated_at: at } });
    await this.announce(current, changes);
    return { ...current, ...changes, updated_at: at };
  }

  /**
   * Appends `rotate` of the latest set (the endpoint's own before any rotation), then brings the endpoint's copy, which attempts
   * sign with, to the log's latest set, checking again after each write: a rotation held between the two must not leave its older set last.
   */
  async rotateSecrets(current: EndpointDoc, rotate: (set: SecretSet) => SecretSet, at: Date): Promise<void> {
    const initial = { secret_sealed: current.secret_sealed, previous_secrets: current.previous_secrets ?? [] };
    let copy = (await this.secretSets.append(current._id, (latest) => rotate(latest?.value ?? initial))).entry!;
    for (;;) {
      await this.update(current, { secret_sealed: copy.value.secret_sealed, previous_secrets: copy.value.previous_secrets ?? [] }, at);
      const latest = await this.secretSets.head(current._id);
      // Each version seals a new secret (a fresh IV too), so the sealed text names the version.
      if (!latest || latest.value.secret_sealed === copy.value.secret_sealed) return this.eraseSecretsBelow(current._id, copy.n);
      copy = latest;
    }
  }

  /**
   * Only the log's head is ever read again (the next rotation derives from it), so the sets below it lose their secrets, those a
   * grace of 0 ended among them. Each keeps its document, emptied: the head is found by entry number, and a gap would fork the log.
   */
  private async eraseSecretsBelow(endpointId: string, head: number): Promise<void> {
    await this.secretSetsCol.updateMany(
      { endpoint_id: endpointId, n: { $lt: head }, secret_sealed: { $ne: ERASED } },
      { $set: { secret_sealed: ERASED, previous_secrets: [] } },
    );
  }

  /** As update, if `updated_at` is as read: exact on MongoDB, only narrowing the race on the embedded store. */
  async updateIfUnchanged(current: EndpointDoc, changes: EndpointChanges, at: Date): Promise<boolean> {
    const result = await this.col.updateOne({ _id: current._id, updated_at: current.updated_at }, { $set: { ...changes, updated_at: at } });
    if (result.modifiedCount === 0) return false;
    await this.announce(current, changes);
    return true;
  }

  /** Any change drops the cached lists except one that touches only CACHE_NEUTRAL_FIELDS (a new field invalidates). */
  private async announce(current: EndpointDoc, changes: EndpointChanges): Promise<void> {
    if (Object.keys(changes).some((field) => !CACHE_NEUTRAL_FIELDS.has(field))) {
      await this.invalidations.append({ kind: 'endpoints_changed', account_id: current.account_id });
    }
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    if (!(await this.find(accountId, id))) return false;
    const result = await this.col.deleteOne({ _id: id });
    await this.invalidations.append({ kind: 'endpoints_changed', account_id: accountId });
    await this.secretSetsCol.deleteMany({ endpoint_id: id });
    return result.deletedCount === 1;
  }
}

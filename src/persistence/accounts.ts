import type { Tier } from '../domain/limits/tiers';
import type { PortalSettings } from '../domain/webhooks/portal-settings';
import { cacheInvalidationsOf } from './cache-invalidations';
import { StoreCollection } from './store-collection';

export interface AccountDoc {
  _id: string;
  email: string;
  tier: Tier;
  created_at: Date;
  /** Set for accounts that sign in to the dashboard (argon2id). */
  password_hash?: string;
  /** Its tenants' portal page: who may frame it, and its branding (absent: the defaults). */
  portal_settings?: PortalSettings;
}

/** `accounts`: one per customer; email is unique (stored lower-cased). A tier change is logged for the processes that cache keys (cache-invalidations.ts). */
export class Accounts extends StoreCollection<AccountDoc>('accounts', [{ email: 1 }, { unique: true }]) {
  private readonly invalidations = cacheInvalidationsOf(this.db);

  /** Throws a duplicate-key error when the email is taken. */
  async insert(doc: AccountDoc): Promise<void> {
    await this.col.insertOne(doc);
  }

  findById(id: string): Promise<AccountDoc | null> {
    return this.col.findOne({ _id: id });
  }

  findByEmail(email: string): Promise<AccountDoc | null> {
    return this.col.findOne({ email: email.toLowerCase() });
  }

  /** Sets (or replaces) the dashboard password hash; false when the account does not exist. */
  async setPasswordHash(id: string, passwordHash: string): Promise<boolean> {
    const result = await this.col.updateOne({ _id: id }, { $set: { password_hash: passwordHash } });
    return result.matchedCount > 0;
  }

  /** Sets the given portal settings, each field on its own (concurrent changes of different fields both stay): the account as changed, null when it does not exist. */
  async setPortalSettings(id: string, changes: Partial<PortalSettings>): Promise<AccountDoc | null> {
    const set = Object.fromEntries(Object.entries(changes).map(([field, value]) => [`portal_settings.${field}`, value]));
    if (Object.keys(set).length === 0) return this.findById(id);
    return this.col.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' });
  }

  async setTier(id: string, tier: Tier): Promise<AccountDoc | null> {
    const result = await this.col.updateOne({ _id: id }, { $set: { tier } });
    if (result.matchedCount === 0) return null;
    await this.invalidations.append({ kind: 'tier_set', account_id: id }, new Date());
    return this.findById(id);
  }
}

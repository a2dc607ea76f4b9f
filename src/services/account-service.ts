import type { Clock } from '../domain/clock';
import { DomainError, ValidationError } from '../domain/errors';
import { newId } from '../domain/ids';
import { generateApiKey, parseApiKey } from '../domain/keys/api-key';
import { isProduct, PRODUCT_CODES, PRODUCTS } from '../domain/keys/products';
import { keysKept, revokedKeysToDelete } from '../domain/keys/revoked-keys';
import { isTier, TIER_NAMES } from '../domain/limits/tiers';
import type { AccountDoc, Accounts } from '../persistence/accounts';
import type { ApiKeyDoc, ApiKeys } from '../persistence/api-keys';
import { isDuplicateKeyError } from '../persistence/mongo';
import { MAX_CACHED_COPY_AGE_MS } from '../persistence/cache-invalidation-follower';

export type AccountView = ReturnType<typeof accountView>;
export type KeyView = ReturnType<typeof keyView>;

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
export const MAX_LABEL_LENGTH = 100;
/** Live (unrevoked) keys an account may hold: rotation needs two or three; this leaves room for one per service. */
export const MAX_LIVE_KEYS_PER_ACCOUNT = 100;
/** A repeated revoke is announced again only while a cached copy of the key may still be answered from. */
const REVOCATION_REANNOUNCE_MS = MAX_CACHED_COPY_AGE_MS;

export class AccountService {
  constructor(private readonly deps: { accounts: Accounts; keys: ApiKeys; clock: Clock }) {}

  async createAccount(email: string, tier: string = 'free', passwordHash?: string): Promise<AccountView> {
    const normalized = email.trim().toLowerCase();
    if (!EMAIL.test(normalized)) throw new ValidationError('email must be an email address.', [{ path: 'email', message: 'Invalid email' }]);
    if (!isTier(tier)) throw new ValidationError(`tier must be one of ${TIER_NAMES.join(', ')}.`, [{ path: 'tier', message: 'Unknown tier' }]);
    const doc: AccountDoc = { _id: newId('acct'), email: normalized, tier, created_at: this.deps.clock() };
    if (passwordHash) doc.password_hash = passwordHash;
    await this.deps.accounts.insert(doc).catch((err: unknown) => {
      throw isDuplicateKeyError(err) ? new DomainError('email_taken', 'An account with this email already exists.') : err;
    });
    return accountView(doc);
  }

  async setTier(accountId: string, tier: string): Promise<AccountView> {
    if (!isTier(tier)) throw new ValidationError(`tier must be one of ${TIER_NAMES.join(', ')}.`, [{ path: 'tier', message: 'Unknown tier' }]);
    const doc = await this.deps.accounts.setTier(accountId, tier);
    if (!doc) throw new DomainError('not_found', `Account ${accountId} not found.`);
    return accountView(doc);
  }

  /** With the full key: returned here only, never stored. */
  async createKey(accountId: string, product: string, label: string): Promise<KeyView & { key: string }> {
    if (!isProduct(product)) {
      throw new ValidationError(`product must be one of ${PRODUCT_CODES.join(', ')}.`, [{ path: 'product', message: 'Unknown product' }]);
    }
    const trimmed = label.trim();
    if (trimmed.length === 0 || trimmed.length > MAX_LABEL_LENGTH) {
      throw new ValidationError(`label must be 1 to ${MAX_LABEL_LENGTH} characters.`, [{ path: 'label', message: 'Invalid label' }]);
    }
    if (!(await this.deps.accounts.findById(accountId))) throw new DomainError('not_found', `Account ${accountId} not found.`);
    const key = generateApiKey(product);
    const parsed = parseApiKey(key)!;
    const doc: ApiKeyDoc = {
      _id: newId('key'),
      account_id: accountId,
      product,
      label: trimmed,
      hash: parsed.hash,
      display_prefix: parsed.displayPrefix,
      last_four: parsed.lastFour,
      created_at: this.deps.clock(),
      revoked_at: null,
    };
    if (!(await this.deps.keys.insertIfRoom(doc, MAX_LIVE_KEYS_PER_ACCOUNT))) {
      throw new DomainError('key_limit_reached', `An account has at most ${MAX_LIVE_KEYS_PER_ACCOUNT} live API keys; revoke one first.`);
    }
    return { ...keyView(doc), key };
  }

  /** Every live key and the most recently revoked ones (revoked-keys.ts), newest first. */
  async listKeys(accountId: string): Promise<KeyView[]> {
    if (!(await this.deps.accounts.findById(accountId))) throw new DomainError('not_found', `Account ${accountId} not found.`);
    return keysKept(await this.deps.keys.listForAccount(accountId)).map(keyView);
  }

  /** With `accountId` only that account's key (dashboard), else any (ops CLI); then prunes revoked keys. */
  async revokeKey(keyId: string, accountId?: string): Promise<KeyView> {
    const now = this.deps.clock();
    const doc = await this.deps.keys.revoke(keyId, now, REVOCATION_REANNOUNCE_MS, accountId);
    if (!doc) throw new DomainError('not_found', `Key ${keyId} not found.`);
    const stale = revokedKeysToDelete(await this.deps.keys.listForAccount(doc.account_id), now, REVOCATION_REANNOUNCE_MS);
    await this.deps.keys.deleteRevoked(stale.map((k) => k._id));
    return keyView(doc);
  }
}

export function accountView(doc: AccountDoc) {
  return { id: doc._id, email: doc.email, tier: doc.tier, created_at: doc.created_at.toISOString() };
}

/** A key as lists show it: never the full key, only its prefix and last four characters. */
export function keyView(doc: ApiKeyDoc) {
  return {
    id: doc._id,
    account_id: doc.account_id,
    product: doc.product,
    product_name: PRODUCTS[doc.product].name,
    label: doc.label,
    prefix: doc.display_prefix,
    last_four: doc.last_four,
    created_at: doc.created_at.toISOString(),
    revoked_at: doc.revoked_at ? doc.revoked_at.toISOString() : null,
  };
}

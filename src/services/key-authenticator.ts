import { UnauthorizedError } from '../domain/errors';
import { parseApiKey } from '../domain/keys/api-key';
import type { AccountDoc, Accounts } from '../persistence/accounts';
import type { ApiKeyDoc, ApiKeys } from '../persistence/api-keys';

export interface Principal {
  key: ApiKeyDoc;
  account: AccountDoc;
}

/**
 * How long a process trusts a cached key lookup. A revocation made in another process
 * (CLI, dashboard on another API instance) takes effect here within this time; the
 * revoking process invalidates its own entry at once.
 */
export const KEY_CACHE_TTL_MS = 500;

export class KeyAuthenticator {
  private readonly cache = new Map<string, { principal: Principal | null; at: number }>();

  constructor(
    private readonly keys: ApiKeys,
    private readonly accounts: Accounts,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves a raw key string; every failure is the same 401 so nothing is revealed about which keys exist. */
  async authenticate(rawKey: string | undefined): Promise<Principal> {
    const parsed = rawKey ? parseApiKey(rawKey) : null;
    if (!parsed) throw new UnauthorizedError('Missing or malformed API key.', 'invalid_api_key');
    const principal = await this.lookup(parsed.hash);
    // Lookup is by hash through a unique index, so the key string is never compared byte by byte.
    if (!principal) throw new UnauthorizedError('Invalid API key.', 'invalid_api_key');
    if (principal.key.revoked_at) throw new UnauthorizedError('This API key has been revoked.', 'revoked_api_key');
    return principal;
  }

  invalidate(hash: string): void {
    this.cache.delete(hash);
  }

  private async lookup(hash: string): Promise<Principal | null> {
    const now = this.now();
    const hit = this.cache.get(hash);
    if (hit && now - hit.at < KEY_CACHE_TTL_MS) return hit.principal;
    const key = await this.keys.findByHash(hash);
    const account = key ? await this.accounts.findById(key.account_id) : null;
    const principal = key && account ? { key, account } : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { principal, at: now });
    return principal;
  }
}

/** `Authorization: Bearer <key>`; the scheme word is case-insensitive (CONTRACT §2). */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^bearer[ ]+(\S+)\s*$/i.exec(header.trim());
  return match?.[1];
}

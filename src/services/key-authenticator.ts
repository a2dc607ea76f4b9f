import { SingleFlight } from '../infra/single-flight';
import { LRUCache } from 'lru-cache';
import { DomainError } from '../domain/errors';
import { parseApiKey } from '../domain/keys/api-key';
import type { AccountDoc, Accounts } from '../persistence/accounts';
import type { ApiKeyDoc, ApiKeys } from '../persistence/api-keys';
import type { CacheLifetime } from '../persistence/cache-invalidation-follower';
import type { Invalidation } from '../persistence/cache-invalidations';

export interface Principal {
  key: ApiKeyDoc;
  account: AccountDoc;
}

/** Trusted unless `lifetime` says longer; a revocation elsewhere applies here within KEY_CACHE_MAX_STALE_MS. */
export const KEY_CACHE_TTL_MS = 500;
/** Served from the cache to this age while one refresh runs (no call waits); dated from the lookup's start, so within the 1 s bound. */
export const KEY_CACHE_MAX_STALE_MS = 900;
const OWN_LIFETIME = { ttlMs: KEY_CACHE_TTL_MS, maxStaleMs: KEY_CACHE_MAX_STALE_MS } as const;
/** How many known keys, and apart from them how many unknown ones, a process remembers. */
const MAX_CACHED_KEYS = 10_000;

interface CacheEntry {
  principal: Principal | null;
  at: number;
}

export class KeyAuthenticator {
  /** Unknown keys, which anyone can send, get their own cache: they push out only one another. */
  private readonly known = new LRUCache<string, CacheEntry>({ max: MAX_CACHED_KEYS });
  private readonly unknown = new LRUCache<string, CacheEntry>({ max: MAX_CACHED_KEYS });
  private readonly inflight = new SingleFlight<string, Principal | null>();
  /** Bumped by every invalidation: a lookup that started before one must not refill the cache. */
  private epoch = 0;

  constructor(private readonly deps: { keys: ApiKeys; accounts: Accounts; now: () => number; lifetime: CacheLifetime }) {}

  /** Resolves a raw key string; every failure is the same 401 so nothing is revealed about which keys exist. */
  async authenticate(rawKey: string | undefined): Promise<Principal> {
    return this.principalOf(rawKey);
  }

  /**
   * `authenticate`, answered (or thrown) synchronously when the cache decides, as for nearly every call:
   * a promise only when the store must be asked. The calls' hot path uses it.
   */
  principalOf(rawKey: string | undefined): Principal | Promise<Principal> {
    const parsed = rawKey ? parseApiKey(rawKey) : null;
    if (!parsed) throw new DomainError('invalid_api_key', 'Missing or malformed API key.');
    const { hash } = parsed;
    const cached = this.cached(hash);
    if (cached !== undefined) return admitted(cached);
    return this.refresh(hash, (this.known.get(hash) ?? this.unknown.get(hash))?.principal ?? null).then(admitted);
  }

  clear(): void {
    this.known.clear();
    this.unknown.clear();
    this.inflight.clear();
    this.epoch++;
  }

  /** A revoked key (here or, through the log, elsewhere) is dropped; a changed tier drops its account's keys and every lookup running. */
  apply(invalidation: Invalidation): void {
    if (invalidation.kind === 'key_revoked') {
      this.known.delete(invalidation.key_hash);
      this.unknown.delete(invalidation.key_hash);
      this.inflight.forget(invalidation.key_hash);
      this.epoch++;
    } else if (invalidation.kind === 'tier_set') {
      const ofAccount = [...this.known.entries()].filter(([, entry]) => entry.principal?.account._id === invalidation.account_id);
      for (const [hash] of ofAccount) this.known.delete(hash);
      this.inflight.clear();
      this.epoch++;
    }
  }

  /** The principal of a valid key when the cache answers it without the store; undefined: `authenticate` decides. */
  cachedPrincipal(rawKey: string | undefined): Principal | undefined {
    const parsed = rawKey ? parseApiKey(rawKey) : null;
    const principal = parsed ? this.cached(parsed.hash) : undefined;
    return principal && !principal.key.revoked_at ? principal : undefined;
  }

  /** What the cache may answer now (null: no such key), a stale entry being refreshed meanwhile; undefined: ask the store. */
  private cached(hash: string): Principal | null | undefined {
    const hit = this.known.get(hash) ?? this.unknown.get(hash);
    if (!hit) return undefined;
    const now = this.deps.now();
    const age = now - hit.at;
    // An unknown key is never kept past the short TTL: a key created elsewhere works at once.
    const { ttlMs, maxStaleMs } = hit.principal ? this.deps.lifetime(now, OWN_LIFETIME) : OWN_LIFETIME;
    if (age < ttlMs) return hit.principal;
    if (age < maxStaleMs && hit.principal && !hit.principal.key.revoked_at) {
      this.refresh(hash, hit.principal).catch(() => undefined /* the next call past the stale bound retries and reports */);
      return hit.principal;
    }
    return undefined;
  }

  private refresh(hash: string, known: Principal | null): Promise<Principal | null> {
    return this.inflight.run(hash, async () => {
      const started = this.deps.now();
      const epoch = this.epoch;
      const principal = await this.fetch(hash, known);
      if (this.epoch === epoch) {
        // A key is in one of the two caches: created elsewhere since it was unknown, or deleted since it was known.
        (principal ? this.unknown : this.known).delete(hash);
        (principal ? this.known : this.unknown).set(hash, { principal, at: started });
      }
      return principal;
    });
  }

  /** A key seen before is re-read by its id (a primary-key lookup); a new one is found by its hash. */
  private async fetch(hash: string, known: Principal | null): Promise<Principal | null> {
    if (known) {
      const [key, account] = await Promise.all([this.deps.keys.findById(known.key._id), this.deps.accounts.findById(known.account._id)]);
      if (key && key.hash === hash && account && key.account_id === account._id) return { key, account };
    }
    const key = await this.deps.keys.findByHash(hash);
    const account = key ? await this.deps.accounts.findById(key.account_id) : null;
    return key && account ? { key, account } : null;
  }
}

/** The principal of a key the cache or the store knows, unless revoked. Lookup is by hash through a unique index, so the key string is never compared byte by byte. */
function admitted(principal: Principal | null): Principal {
  if (!principal) throw new DomainError('invalid_api_key', 'Invalid API key.');
  if (principal.key.revoked_at) throw new DomainError('revoked_api_key', 'This API key has been revoked.');
  return principal;
}

/** `Authorization: Bearer <key>`; the scheme word is case-insensitive (CONTRACT §2). */
export function bearerToken(header: string | undefined): string | undefined {
  return header ? /^bearer[ ]+(\S+)\s*$/i.exec(header.trim())?.[1] : undefined;
}

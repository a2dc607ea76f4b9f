import { generateApiKey, hashApiKey, parseApiKey } from '../../../src/domain/keys/api-key';
import { answerGate } from '../../support/gate';
import type { AccountDoc, Accounts } from '../../../src/persistence/accounts';
import type { ApiKeyDoc, ApiKeys } from '../../../src/persistence/api-keys';
import { FOLLOW_MAX_LAG_MS, FOLLOWED_TTL_MS, lifetimeOf } from '../../../src/persistence/cache-invalidation-follower';
import { bearerToken, KEY_CACHE_MAX_STALE_MS, KEY_CACHE_TTL_MS, KeyAuthenticator } from '../../../src/services/key-authenticator';

/** Fake repositories with a controllable delay, counting their queries; like a driver, they return fresh copies. */
function fakeStore() {
  const keys = new Map<string, ApiKeyDoc>();
  const accounts = new Map<string, AccountDoc>();
  const queries: string[] = [];
  const gate = answerGate();
  const wait = async () => {
    await new Promise((r) => setImmediate(r));
    await gate.passed();
  };
  const keyRepo = {
    findByHash: async (hash: string) => {
      queries.push('findByHash');
      const found = [...keys.values()].find((k) => k.hash === hash);
      const copy = found ? structuredClone(found) : null;
      await wait(); // the answer reflects the moment of the read, and arrives later
      return copy;
    },
    findById: async (id: string) => {
      queries.push('key.findById');
      const found = keys.get(id);
      const copy = found ? structuredClone(found) : null;
      await wait();
      return copy;
    },
  } as unknown as ApiKeys;
  const accountRepo = {
    findById: async (id: string) => {
      queries.push('account.findById');
      const found = accounts.get(id);
      const copy = found ? structuredClone(found) : null;
      await wait();
      return copy;
    },
  } as unknown as Accounts;
  const add = (product: 'weh' | 'sec' = 'weh') => {
    const key = generateApiKey(product);
    const id = `key_${keys.size + 1}`;
    accounts.set('acct_1', { _id: 'acct_1', email: 'a@example.test', tier: 'free', created_at: new Date() });
    keys.set(id, { _id: id, account_id: 'acct_1', product, label: 'l', hash: hashApiKey(key), display_prefix: `svc_live_${product}_`, last_four: key.slice(-4), created_at: new Date(), revoked_at: null });
    return { key, id };
  };
  return {
    keyRepo,
    accountRepo,
    keys,
    accounts,
    queries,
    add,
    revoke: (id: string) => void (keys.get(id)!.revoked_at = new Date()),
    /** Holds every query until the returned function is called. */
    hold: gate.hold,
  };
}

function setup() {
  const store = fakeStore();
  let now = 1_000_000;
  const auth = new KeyAuthenticator({ keys: store.keyRepo, accounts: store.accountRepo, now: () => now, lifetime: lifetimeOf({ coveredSince: () => null }) });
  return { store, auth, advance: (ms: number) => (now += ms) };
}

/** An authenticator whose process follows the cache-invalidations log; `poll()` marks a complete poll now. */
function followingSetup() {
  const store = fakeStore();
  let now = 1_000_000;
  let covered: number | null = null;
  const auth = new KeyAuthenticator({ keys: store.keyRepo, accounts: store.accountRepo, now: () => now, lifetime: lifetimeOf({ coveredSince: () => covered }) });
  return {
    store,
    auth,
    advance: (ms: number) => (now += ms),
    poll: () => (covered = now),
  };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('KeyAuthenticator', () => {
  it('resolves an active key to its key and account', async () => {
    const { store, auth } = setup();
    const { key, id } = store.add();
    const principal = await auth.authenticate(key);
    expect(principal.key._id).toBe(id);
    expect(principal.account._id).toBe('acct_1');
  });

  it.each([undefined, '', 'svc_live_weh_123', `svc_live_xyz_${'a'.repeat(32)}`])('malformed key %p: 401 without a query', async (raw) => {
    const { store, auth } = setup();
    await expect(auth.authenticate(raw)).rejects.toMatchObject({ code: 'invalid_api_key' });
    expect(store.queries).toEqual([]);
  });

  it('an unknown well-formed key: 401 invalid_api_key', async () => {
    const { auth } = setup();
    await expect(auth.authenticate(generateApiKey('weh'))).rejects.toMatchObject({ code: 'invalid_api_key' });
  });

  it('a revoked key: 401 revoked_api_key', async () => {
    const { store, auth } = setup();
    const { key, id } = store.add();
    store.revoke(id);
    await expect(auth.authenticate(key)).rejects.toMatchObject({ code: 'revoked_api_key' });
  });

  it('within the TTL a key is answered from the cache', async () => {
    const { store, auth, advance } = setup();
    const { key } = store.add();
    await auth.authenticate(key);
    const before = store.queries.length;
    advance(KEY_CACHE_TTL_MS - 1);
    await auth.authenticate(key);
    expect(store.queries.length).toBe(before);
  });

  it('concurrent first calls with the same key share one lookup', async () => {
    const { store, auth } = setup();
    const { key } = store.add();
    await Promise.all(Array.from({ length: 20 }, () => auth.authenticate(key)));
    expect(store.queries.filter((q) => q === 'findByHash')).toHaveLength(1);
  });

  it('past the TTL the cached key still answers while one background refresh by id runs', async () => {
    const { store, auth, advance } = setup();
    const { key } = store.add();
    await auth.authenticate(key);
    store.queries.length = 0;
    advance(KEY_CACHE_TTL_MS + 10);
    const release = store.hold();
    // Answered at once although the database is held.
    await Promise.all(Array.from({ length: 5 }, () => auth.authenticate(key)));
    release();
    await settle();
    await settle();
    expect(store.queries.sort()).toEqual(['account.findById', 'key.findById']);
  });

  it('principalOf answers a cached key without a promise, and a store lookup with one, like authenticate', async () => {
    const { store, auth } = setup();
    const { key, id } = store.add();
    const first = auth.principalOf(key);
    expect(first).toBeInstanceOf(Promise);
    expect((await first).key._id).toBe(id);
    const cached = auth.principalOf(key);
    expect(cached).not.toBeInstanceOf(Promise);
    expect((cached as Awaited<typeof first>).key._id).toBe(id);
    expect(store.queries).toEqual(['findByHash', 'account.findById']);
  });

  it('principalOf throws at once for a malformed key, and for a key the cache knows to be unknown or revoked', async () => {
    const { store, auth } = setup();
    expect(() => auth.principalOf('svc_live_weh_nothex')).toThrow(expect.objectContaining({ code: 'invalid_api_key' }));
    expect(() => auth.principalOf(undefined)).toThrow(expect.objectContaining({ code: 'invalid_api_key' }));
    const unknown = generateApiKey('weh');
    await expect(auth.principalOf(unknown)).rejects.toMatchObject({ code: 'invalid_api_key' });
    expect(() => auth.principalOf(unknown)).toThrow(expect.objectContaining({ code: 'invalid_api_key' }));
    const { key, id } = store.add();
    await auth.principalOf(key);
    auth.apply({ kind: 'key_revoked', key_hash: hashApiKey(key) } as never);
    store.revoke(id);
    await expect(auth.principalOf(key)).rejects.toMatchObject({ code: 'revoked_api_key' });
    expect(() => auth.principalOf(key)).toThrow(expect.objectContaining({ code: 'revoked_api_key' }));
  });

  it('a revocation made elsewhere is seen within 1 s: a stale answer is never older than KEY_CACHE_MAX_STALE_MS', async () => {
    expect(KEY_CACHE_MAX_STALE_MS).toBeLessThan(1_000);
    const { store, auth, advance } = setup();
    const { key, id } = store.add();
    await auth.authenticate(key);
    store.revoke(id); // in another process: no invalidation applied here
    advance(KEY_CACHE_MAX_STALE_MS);
    await expect(auth.authenticate(key)).rejects.toMatchObject({ code: 'revoked_api_key' });
  });

  it('after a background refresh the revocation is answered', async () => {
    const { store, auth, advance } = setup();
    const { key, id } = store.add();
    await auth.authenticate(key);
    store.revoke(id);
    advance(KEY_CACHE_TTL_MS + 1);
    await auth.authenticate(key); // stale answer, refresh starts
    await settle();
    await settle();
    await expect(auth.authenticate(key)).rejects.toMatchObject({ code: 'revoked_api_key' });
  });

  it('a key_revoked invalidation (a revocation in this process) takes effect at once, even against a lookup already running', async () => {
    const { store, auth, advance } = setup();
    const { key, id } = store.add();
    await auth.authenticate(key);
    advance(KEY_CACHE_MAX_STALE_MS + 1);
    const release = store.hold();
    const running = auth.authenticate(key); // reads the key before the revocation
    await settle();
    expect(store.queries.slice(-2).sort()).toEqual(['account.findById', 'key.findById']);
    store.revoke(id);
    auth.apply({ kind: 'key_revoked', key_hash: hashApiKey(key) });
    release();
    await running; // a call concurrent with the revocation may still pass...
    await expect(auth.authenticate(key)).rejects.toMatchObject({ code: 'revoked_api_key' }); // ...the next one may not
  });

  it('a flood of unknown well-formed keys does not drop a cached valid key', async () => {
    const { store, auth } = setup();
    const { key } = store.add();
    await auth.authenticate(key);
    for (let i = 0; i <= 10_000; i++) await auth.authenticate(generateApiKey('weh')).catch(() => undefined);
    const before = store.queries.length;
    await auth.authenticate(key);
    expect(store.queries.length).toBe(before);
  });

  it('a changed tier is picked up by the refresh', async () => {
    const { store, auth, advance } = setup();
    const { key } = store.add();
    await auth.authenticate(key);
    store.accounts.get('acct_1')!.tier = 'enterprise';
    advance(KEY_CACHE_MAX_STALE_MS);
    expect((await auth.authenticate(key)).account.tier).toBe('enterprise');
  });
});

describe('KeyAuthenticator.cachedPrincipal (a decision taken before the framework)', () => {
  it('answers a key the cache holds, without a query', async () => {
    const { store, auth } = setup();
    const { key, id } = store.add();
    await auth.authenticate(key);
    store.queries.length = 0;
    expect(auth.cachedPrincipal(key)?.key._id).toBe(id);
    expect(store.queries).toEqual([]);
  });

  it('answers nothing for a key never looked up, a malformed one or none, and asks the store nothing', () => {
    const { store, auth } = setup();
    const { key } = store.add();
    expect([auth.cachedPrincipal(key), auth.cachedPrincipal('svc_live_weh_123'), auth.cachedPrincipal(undefined)]).toEqual([undefined, undefined, undefined]);
    expect(store.queries).toEqual([]);
  });

  it('answers nothing for a revoked key, an invalidated one, or one past KEY_CACHE_MAX_STALE_MS', async () => {
    const { store, auth, advance } = setup();
    const revoked = store.add();
    const invalidated = store.add();
    const aged = store.add();
    store.revoke(revoked.id);
    await expect(auth.authenticate(revoked.key)).rejects.toMatchObject({ code: 'revoked_api_key' });
    await auth.authenticate(invalidated.key);
    auth.apply({ kind: 'key_revoked', key_hash: store.keys.get(invalidated.id)!.hash });
    expect(auth.cachedPrincipal(revoked.key)).toBeUndefined();
    expect(auth.cachedPrincipal(invalidated.key)).toBeUndefined();
    await auth.authenticate(aged.key);
    advance(KEY_CACHE_MAX_STALE_MS);
    expect(auth.cachedPrincipal(aged.key)).toBeUndefined();
  });

  it('past the TTL answers the cached key while one background refresh runs, as authenticate does', async () => {
    const { store, auth, advance } = setup();
    const { key, id } = store.add();
    await auth.authenticate(key);
    store.queries.length = 0;
    advance(KEY_CACHE_TTL_MS + 10);
    expect(auth.cachedPrincipal(key)?.key._id).toBe(id);
    await settle();
    await settle();
    expect(store.queries.sort()).toEqual(['account.findById', 'key.findById']);
  });
});

describe('KeyAuthenticator following the cache-invalidations log', () => {
  it('keeps a key past the 1 s bound without reading it again while the log is followed', async () => {
    const { store, auth, advance, poll } = followingSetup();
    const { key } = store.add();
    poll();
    await auth.authenticate(key);
    store.queries.length = 0;
    for (let t = 0; t < 10_000; t += 200) {
      advance(200);
      poll();
      await auth.authenticate(key);
    }
    expect(store.queries).toEqual([]);
  });

  it('a revocation read from the log is refused at the next call', async () => {
    const { store, auth, advance, poll } = followingSetup();
    const { key, id } = store.add();
    poll();
    await auth.authenticate(key);
    advance(5_000);
    store.revoke(id);
    poll();
    auth.apply({ kind: 'key_revoked', key_hash: hashApiKey(key) });
    await expect(auth.authenticate(key)).rejects.toMatchObject({ code: 'revoked_api_key' });
  });

  it('a tier change read from the log drops every cached key of the account', async () => {
    const { store, auth, advance, poll } = followingSetup();
    const first = store.add();
    const second = store.add('sec');
    poll();
    await auth.authenticate(first.key);
    await auth.authenticate(second.key);
    advance(5_000);
    store.accounts.get('acct_1')!.tier = 'enterprise';
    poll();
    auth.apply({ kind: 'tier_set', account_id: 'acct_1' });
    expect((await auth.authenticate(first.key)).account.tier).toBe('enterprise');
    expect((await auth.authenticate(second.key)).account.tier).toBe('enterprise');
  });

  it('a lookup running when a tier change arrives does not put the old tier back in the cache', async () => {
    const { store, auth, advance, poll } = followingSetup();
    const { key } = store.add();
    poll();
    await auth.authenticate(key);
    advance(KEY_CACHE_MAX_STALE_MS); // no poll since: the next call re-reads key and account
    const release = store.hold();
    const running = auth.authenticate(key);
    await settle();
    expect(store.queries.slice(-2).sort()).toEqual(['account.findById', 'key.findById']); // read, answer held
    store.accounts.get('acct_1')!.tier = 'enterprise';
    poll();
    auth.apply({ kind: 'tier_set', account_id: 'acct_1' });
    release();
    expect((await running).account.tier).toBe('free'); // a call concurrent with the change may see the old tier...
    advance(100);
    poll();
    expect((await auth.authenticate(key)).account.tier).toBe('enterprise'); // ...the next one may not
  });

  it('clear() (the follower starting afresh) drops a key cached before the log was followed', async () => {
    const { store, auth, poll } = followingSetup();
    const { key, id } = store.add();
    await auth.authenticate(key); // cached on the short TTL: the log not followed yet
    store.revoke(id); // elsewhere, logged before the follower found the log's end
    auth.clear();
    poll();
    await expect(auth.authenticate(key)).rejects.toMatchObject({ code: 'revoked_api_key' });
  });

  it('when polls stop, keys are re-read as without the log: a revocation elsewhere is seen within 1 s', async () => {
    const { store, auth, advance, poll } = followingSetup();
    const { key, id } = store.add();
    poll();
    await auth.authenticate(key);
    advance(FOLLOW_MAX_LAG_MS); // no complete poll since
    store.revoke(id); // elsewhere, and not (yet) read from the log
    advance(KEY_CACHE_MAX_STALE_MS - FOLLOW_MAX_LAG_MS);
    await expect(auth.authenticate(key)).rejects.toMatchObject({ code: 'revoked_api_key' });
  });

  it('re-reads a followed key in the background after FOLLOWED_TTL_MS (a change the log missed)', async () => {
    const { store, auth, advance, poll } = followingSetup();
    const { key } = store.add();
    poll();
    await auth.authenticate(key);
    store.queries.length = 0;
    store.accounts.get('acct_1')!.tier = 'team'; // written without a log entry
    advance(FOLLOWED_TTL_MS);
    poll();
    expect((await auth.authenticate(key)).account.tier).toBe('free'); // answered at once...
    await settle();
    await settle();
    expect(store.queries.sort()).toEqual(['account.findById', 'key.findById']); // ...while one refresh runs
    expect((await auth.authenticate(key)).account.tier).toBe('team');
  });

  it('an unknown key is not kept longer than KEY_CACHE_TTL_MS (a key created in another process works at once)', async () => {
    const { store, auth, advance, poll } = followingSetup();
    const key = generateApiKey('weh');
    poll();
    await expect(auth.authenticate(key)).rejects.toMatchObject({ code: 'invalid_api_key' });
    const findsBefore = store.queries.filter((q) => q === 'findByHash').length;
    advance(KEY_CACHE_TTL_MS);
    poll();
    await expect(auth.authenticate(key)).rejects.toMatchObject({ code: 'invalid_api_key' });
    expect(store.queries.filter((q) => q === 'findByHash').length).toBe(findsBefore + 1);
  });
});

describe('bearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['Bearer   abc  ', 'abc'],
    ['Basic abc', undefined],
    ['Bearer', undefined],
    ['Bearer a b', undefined],
    ['abc', undefined],
    ['', undefined],
  ])('%p → %p', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});

describe('API key strings', () => {
  it('are svc_live_<product>_<32 hex> from a CSPRNG, different every time', () => {
    const keys = new Set(Array.from({ length: 100 }, () => generateApiKey('pii')));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^svc_live_pii_[0-9a-f]{32}$/);
  });

  it('parse to their product, SHA-256 hash, last four and display prefix', () => {
    const key = generateApiKey('dep');
    expect(parseApiKey(key)).toEqual({ product: 'dep', hash: hashApiKey(key), lastFour: key.slice(-4), displayPrefix: 'svc_live_dep_' });
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(parseApiKey(key.toUpperCase())).toBeNull();
  });
});

import type { Db } from 'mongodb';
import { newId } from '../../src/domain/ids';
import { MAX_REVOKED_KEYS_KEPT } from '../../src/domain/keys/revoked-keys';
import { Accounts } from '../../src/persistence/accounts';
import { ApiKeyDoc, ApiKeys } from '../../src/persistence/api-keys';
import { AccountService } from '../../src/services/account-service';
import { openTestDb } from '../support/test-db';

/** Revoked keys are bounded: what an account keeps, and what its key list (the dashboard's keys page) reads. */
describe('revoked API keys', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('revoked_keys');
    db = store.db;
  });
  afterAll(() => store.close());

  /** A clock that moves 2 minutes a call: each revocation is older than a repeated revocation may announce again. */
  function steppingClock() {
    let now = Date.parse('2026-11-24T00:00:00Z');
    return () => new Date((now += 120_000));
  }

  async function newAccount(service: AccountService): Promise<string> {
    return (await service.createAccount(`${newId('acct')}@example.com`)).id;
  }

  it(`an account keeps only its ${MAX_REVOKED_KEYS_KEPT} most recently revoked keys`, async () => {
    const service = new AccountService({ accounts: new Accounts(db), keys: new ApiKeys(db), clock: steppingClock() });
    const accountId = await newAccount(service);
    const revoked: string[] = [];
    for (let i = 0; i < MAX_REVOKED_KEYS_KEPT + 5; i++) {
      const key = await service.createKey(accountId, 'weh', `key ${i}`);
      await service.revokeKey(key.id, accountId);
      revoked.push(key.id);
    }
    const stored = await db.collection<ApiKeyDoc>('api_keys').find({ account_id: accountId }).toArray();
    expect(stored.map((k) => k._id).sort()).toEqual(revoked.slice(-MAX_REVOKED_KEYS_KEPT).sort());
  });

  it(`the key list shows every live key and the ${MAX_REVOKED_KEYS_KEPT} most recently revoked ones`, async () => {
    const keys = new ApiKeys(db);
    const service = new AccountService({ accounts: new Accounts(db), keys, clock: steppingClock() });
    const accountId = await newAccount(service);
    const live = [await service.createKey(accountId, 'weh', 'live 1'), await service.createKey(accountId, 'sec', 'live 2')];
    // Revoked keys stored before revoked keys were bounded: more than are kept.
    const at = (minutes: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + minutes * 60_000);
    const legacy: ApiKeyDoc[] = Array.from({ length: MAX_REVOKED_KEYS_KEPT + 10 }, (_, i) => ({
      _id: newId('key'),
      account_id: accountId,
      product: 'weh',
      label: `old ${i}`,
      hash: `legacy-${accountId}-${i}`,
      display_prefix: 'svc_live_weh_',
      last_four: '0000',
      created_at: at(i),
      revoked_at: at(1000 + i),
    }));
    await db.collection<ApiKeyDoc>('api_keys').insertMany(legacy);

    const listed = await service.listKeys(accountId);
    expect(listed.filter((k) => k.revoked_at === null).map((k) => k.id).sort()).toEqual(live.map((k) => k.id).sort());
    expect(listed.filter((k) => k.revoked_at !== null).map((k) => k.id).sort()).toEqual(legacy.slice(-MAX_REVOKED_KEYS_KEPT).map((k) => k._id).sort());
  });
});

import type { Collection, Db } from 'mongodb';
import type { TenantCaps } from '../../src/domain/webhooks/tenant';
import { Tenants, tenantKey, type TenantDoc } from '../../src/persistence/tenants';
import { holdMethod } from '../support/gate';
import { openTestDb } from '../support/test-db';

/**
 * A tenant's places on the real embedded store, each race held at its racy point: a tenant's last place given back while a
 * create takes one, and two creates making the same new tenant at once. Neither may lose a place or leave a count wrong.
 */
describe("a tenant's places under racing creates and deletes", () => {
  const caps: TenantCaps = { endpointsPerTenant: 5, tenantsPerAccount: 5 };
  const now = new Date('2026-11-29T00:00:00Z');
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  let tenants: Tenants;
  let col: Collection<TenantDoc>;
  const accountTenants = async (accountId: string) => (await db.collection<{ _id: string; tenants?: number }>('account_counts').findOne({ _id: accountId }))?.tenants;

  beforeAll(async () => {
    store = await openTestDb('tenant_cap_race');
    db = store.db;
  });
  beforeEach(async () => {
    tenants = new Tenants(db);
    await tenants.ensureIndexes();
    // The collection the places are counted in, to hold one of its writes.
    col = (tenants as unknown as { col: Collection<TenantDoc> }).col;
  });
  afterAll(() => store.close());

  it('the last place given back while a create takes one: the tenant, its count and its account place stay', async () => {
    const accountId = 'acct_last_place';
    expect(await tenants.takePlace(accountId, 'cus_1', caps, now)).toBeNull();
    // Held between the decrement (the count is 0) and the removal of the tenant.
    const gate = holdMethod(col, 'deleteOne', { when: (filter) => (filter as { _id?: string })._id === tenantKey(accountId, 'cus_1') });
    const givingBack = tenants.giveBack(accountId, 'cus_1');
    await gate.reached;
    expect(await tenants.takePlace(accountId, 'cus_1', caps, now)).toBeNull();
    gate.open();
    await givingBack;
    gate.restore();
    expect((await tenants.find(accountId, 'cus_1'))?.endpoints).toBe(1);
    expect(await accountTenants(accountId)).toBe(1);
    // And its last place given back now removes it, and returns the account's place.
    await tenants.giveBack(accountId, 'cus_1');
    expect(await tenants.find(accountId, 'cus_1')).toBeNull();
    expect(await accountTenants(accountId)).toBe(0);
  });

  it('two creates making the same new tenant: one tenant with both places, one account place', async () => {
    const accountId = 'acct_same_new';
    // The first holds its insert of the tenant, its account place taken; the second makes the tenant meanwhile.
    const gate = holdMethod(col, 'insertOne');
    const first = tenants.takePlace(accountId, 'cus_new', caps, now);
    await gate.reached;
    expect(await tenants.takePlace(accountId, 'cus_new', caps, now)).toBeNull();
    gate.open();
    expect(await first).toBeNull();
    gate.restore();
    expect((await tenants.find(accountId, 'cus_new'))?.endpoints).toBe(2);
    expect(await accountTenants(accountId)).toBe(1);
    expect(await tenants.list(accountId, 10)).toHaveLength(1);
  });
});

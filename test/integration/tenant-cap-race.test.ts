import type { Collection, Db } from 'mongodb';
import type { TenantCaps } from '../../src/domain/webhooks/tenant';
import type { accountTenantPlacesOf } from '../../src/persistence/account-tenant-places';
import { Tenants, tenantKey, type TenantDoc } from '../../src/persistence/tenants';
import { holdMethod } from '../support/gate';
import { openTestDb } from '../support/test-db';

/**
 * A tenant's places on the real embedded store, each race held at its racy point: a tenant's last place given back while a
 * create takes one, two creates making the same new tenant at once, and a tenant made again while its removal gives back
 * the account's place. None may lose a place, take two account places for one tenant, or leave a count wrong.
 */
describe("a tenant's places under racing creates and deletes", () => {
  const caps: TenantCaps = { endpointsPerTenant: 5, tenantsPerAccount: 5 };
  const now = new Date('2026-11-29T00:00:00Z');
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  let tenants: Tenants;
  let col: Collection<TenantDoc>;
  /** How many of the account's tenant places are taken. */
  const accountTenants = async (accountId: string) => (await db.collection<{ _id: string; n: number }>('account_tenant_places').findOne({ _id: accountId }))?.n ?? 0;
  /** The account's tenant places as the tenants' collection holds them, to hold one of their writes. */
  const placesOf = (t: Tenants) => (t as unknown as { places: ReturnType<typeof accountTenantPlacesOf> }).places;

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
    const gate = holdMethod(col, 'findOneAndDelete', { when: (filter) => (filter as { _id?: string })._id === tenantKey(accountId, 'cus_1') });
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

  // Held at each racy point of a first create: with the tenant's document made (or joined) and the account's place not yet
  // held, then with the place held and the tenant not yet marked placed. A second create of the same new tenant completes
  // meanwhile; the account has room for that one tenant only, so a second account place taken would be refused.
  const racyPoints = {
    'before it holds the account place': () => holdMethod(placesOf(tenants), 'hold'),
    'with the account place held, before the tenant is marked placed': () =>
      holdMethod(col, 'updateOne', { when: (_filter, update) => (update as { $set?: { placed?: boolean } }).$set?.placed === true }),
  };
  for (const [point, hold] of Object.entries(racyPoints)) {
    it(`two first creates of one new tenant near the account's cap, the first held ${point}: both get a place, one account place is taken`, async () => {
      const accountId = `acct_same_new_${point.length}`;
      const nearCap: TenantCaps = { endpointsPerTenant: 5, tenantsPerAccount: 2 };
      expect(await tenants.takePlace(accountId, 'cus_0', nearCap, now)).toBeNull();
      const gate = hold();
      const first = tenants.takePlace(accountId, 'cus_new', nearCap, now);
      await gate.reached;
      expect(await tenants.takePlace(accountId, 'cus_new', nearCap, now)).toBeNull();
      gate.open();
      expect(await first).toBeNull();
      gate.restore();
      expect(await tenants.find(accountId, 'cus_new')).toMatchObject({ endpoints: 2, placed: true });
      expect(await accountTenants(accountId)).toBe(2);
      expect(await tenants.list(accountId, 10)).toHaveLength(2);
      // The account is full now: another tenant is refused and leaves nothing behind.
      expect(await tenants.takePlace(accountId, 'cus_other', nearCap, now)).toBe('tenants_full');
      expect(await tenants.find(accountId, 'cus_other')).toBeNull();
      expect(await accountTenants(accountId)).toBe(2);
    });
  }

  it("a removed tenant's give-back held while the tenant is made again at the account's cap: the new one keeps the place", async () => {
    const accountId = 'acct_made_again';
    const full: TenantCaps = { endpointsPerTenant: 5, tenantsPerAccount: 1 };
    expect(await tenants.takePlace(accountId, 'cus_1', full, now)).toBeNull();
    // Held with the tenant's document removed, its account place not yet given back.
    const gate = holdMethod(placesOf(tenants), 'giveBack');
    const givingBack = tenants.giveBack(accountId, 'cus_1');
    await gate.reached;
    expect(await tenants.find(accountId, 'cus_1')).toBeNull();
    expect(await tenants.takePlace(accountId, 'cus_1', full, now)).toBeNull();
    gate.open();
    await givingBack;
    gate.restore();
    // The late give-back was the removed incarnation's: the place stays the new one's, counted once.
    expect(await tenants.find(accountId, 'cus_1')).toMatchObject({ endpoints: 1, placed: true });
    expect(await accountTenants(accountId)).toBe(1);
    expect(await tenants.takePlace(accountId, 'cus_2', full, now)).toBe('tenants_full');
    await tenants.giveBack(accountId, 'cus_1');
    expect(await accountTenants(accountId)).toBe(0);
    expect(await tenants.takePlace(accountId, 'cus_2', full, now)).toBeNull();
  });
});

import { isTenantId, sameTenant } from '../../../src/domain/webhooks/tenant';

describe('tenants: the id rule and the matching rule', () => {
  it.each(['a', 'cus_8f14e45f', 'org:42', 'A.b-c_d:e', 'x'.repeat(128)])('accepts %s', (id) => expect(isTenantId(id)).toBe(true));

  it.each(['', 'x'.repeat(129), 'cus 1', 'cus/1', 'cüs', 'a\u0000b', 'a?b', 'a%2F'])('refuses %j', (id) => expect(isTenantId(id)).toBe(false));

  it('refuses what is not a string', () => {
    for (const value of [42, null, undefined, ['a'], { id: 'a' }]) expect(isTenantId(value)).toBe(false);
  });

  it('matches an endpoint and an event of the same tenant, or of none; never across tenants, and no broadcast', () => {
    expect(sameTenant('A', 'A')).toBe(true);
    expect(sameTenant(undefined, undefined)).toBe(true);
    expect(sameTenant(null, undefined)).toBe(true);
    expect(sameTenant('A', 'B')).toBe(false);
    expect(sameTenant('A', undefined)).toBe(false);
    expect(sameTenant(null, 'A')).toBe(false);
    expect(sameTenant(undefined, 'A')).toBe(false);
  });
});

import { TenantShares } from '../../../src/domain/flow-control/tenant-shares';

describe('TenantShares', () => {
  it('puts a heavy tenant at or above its share and a light one below', () => {
    const shares = new TenantShares(10, () => 5_000);
    shares.add('flood', 50);
    shares.add('quiet', 1);
    expect(shares.atOrAboveShare('flood')).toBe(true);
    expect(shares.atOrAboveShare('quiet')).toBe(false);
  });

  it('puts tenants that take alike all at their share', () => {
    const shares = new TenantShares(10, () => 5_000);
    shares.add('a', 10);
    shares.add('b', 10);
    expect([shares.atOrAboveShare('a'), shares.atOrAboveShare('b')]).toEqual([true, true]);
  });

  it('puts a tenant alone at its share, and one that took nothing below', () => {
    const shares = new TenantShares(10, () => 5_000);
    shares.add('alone', 3);
    expect(shares.atOrAboveShare('alone')).toBe(true);
    expect(shares.atOrAboveShare('new')).toBe(false);
  });

  it('forgets what was taken before the window', () => {
    let now = 5_000;
    const shares = new TenantShares(10, () => now);
    shares.add('old', 100);
    now += 10_000;
    shares.add('recent', 1);
    expect(shares.atOrAboveShare('old')).toBe(false);
    expect(shares.atOrAboveShare('recent')).toBe(true);
  });
});

import { LagShares } from '../../../src/domain/flow-control/lag-shares';

describe('lag shares: the share of a late account’s new events let in', () => {
  it('lets in every event of an account that was never late', () => {
    const shares = new LagShares();
    shares.step(new Set(['other']));
    expect(shares.shareOf('quiet')).toBe(1);
  });

  it('cuts a late account’s share by a factor each step it stays late', () => {
    const shares = new LagShares();
    shares.step(new Set(['late']));
    const once = shares.shareOf('late');
    shares.step(new Set(['late']));
    expect(once).toBeLessThan(1);
    expect(shares.shareOf('late')).toBeCloseTo(once * once);
  });

  it('never cuts a share to nothing, so the account’s lag can still be measured', () => {
    const shares = new LagShares();
    for (let i = 0; i < 50; i++) shares.step(new Set(['late']));
    expect(shares.shareOf('late')).toBeGreaterThan(0);
  });

  it('grows a share back by steps once the account is no longer late, up to all of its events', () => {
    const shares = new LagShares();
    for (let i = 0; i < 50; i++) shares.step(new Set(['late']));
    const floor = shares.shareOf('late');
    shares.step(new Set());
    const after = shares.shareOf('late');
    expect(after).toBeGreaterThan(floor);
    expect(after).toBeLessThan(1);
    for (let i = 0; i < 20; i++) shares.step(new Set());
    expect(shares.shareOf('late')).toBe(1);
  });
});

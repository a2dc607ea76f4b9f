import { LagShares, reportedFrom } from '../../../src/domain/flow-control/lag-shares';

const BOUND = 2_000;
const late = (accountId: string) => new Map([[accountId, BOUND + 500]]);
const near = (accountId: string) => new Map([[accountId, (reportedFrom(BOUND) + BOUND) / 2]]);
const none = new Map<string, number>();

describe('lag shares: the share of a late account’s new events let in', () => {
  it('lets in every event of an account that was never late', () => {
    const shares = new LagShares();
    shares.step(late('other'), BOUND);
    expect(shares.shareOf('quiet')).toBe(1);
  });

  it('cuts a late account’s share by a factor each step it stays late', () => {
    const shares = new LagShares();
    shares.step(late('late'), BOUND);
    const once = shares.shareOf('late');
    shares.step(late('late'), BOUND);
    expect(once).toBeLessThan(1);
    expect(shares.shareOf('late')).toBeCloseTo(once * once);
  });

  it('does not cut an account reported close to the bound but not past it', () => {
    const shares = new LagShares();
    shares.step(near('close'), BOUND);
    expect(shares.shareOf('close')).toBe(1);
  });

  it('holds a cut share while the account stays close to the bound', () => {
    const shares = new LagShares();
    shares.step(late('late'), BOUND);
    const cut = shares.shareOf('late');
    for (let i = 0; i < 10; i++) shares.step(near('late'), BOUND);
    expect(shares.shareOf('late')).toBe(cut);
  });

  it('never cuts a share to nothing, so the account’s lag can still be measured', () => {
    const shares = new LagShares();
    for (let i = 0; i < 100; i++) shares.step(late('late'), BOUND);
    expect(shares.shareOf('late')).toBeGreaterThan(0);
  });

  it('lets in at most 1 in 400 of a late account’s new events at the floor, however often they are retried', () => {
    const shares = new LagShares();
    for (let i = 0; i < 100; i++) shares.step(late('late'), BOUND);
    expect(shares.shareOf('late')).toBeCloseTo(1 / 400, 9);
  });

  it('grows a share back slowly from the floor: one step lets in at most 1 in 100', () => {
    const shares = new LagShares();
    for (let i = 0; i < 100; i++) shares.step(late('late'), BOUND);
    shares.step(none, BOUND);
    expect(shares.shareOf('late')).toBeCloseTo(1 / 100, 9);
  });

  it('grows a share back by steps once the account is well within the bound, up to all of its events', () => {
    const shares = new LagShares();
    for (let i = 0; i < 100; i++) shares.step(late('late'), BOUND);
    const floor = shares.shareOf('late');
    shares.step(none, BOUND);
    const after = shares.shareOf('late');
    expect(after).toBeGreaterThan(floor);
    expect(after).toBeLessThan(1);
    for (let i = 0; i < 40; i++) shares.step(none, BOUND);
    expect(shares.shareOf('late')).toBe(1);
  });
});

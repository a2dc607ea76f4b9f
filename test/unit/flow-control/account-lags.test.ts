import { AccountLags } from '../../../src/domain/flow-control/account-lags';

describe('AccountLags', () => {
  it('names the accounts whose worst lag over the window is past the bound, with that lag', () => {
    const lags = new AccountLags(5_000, () => 10_000);
    lags.record('late', 2_500);
    lags.record('late', 100);
    lags.record('prompt', 300);
    expect(lags.over(2_000)).toEqual([{ accountId: 'late', lagMs: 2_500 }]);
  });

  it('forgets lags older than the window', () => {
    let now = 10_000;
    const lags = new AccountLags(5_000, () => now);
    lags.record('late', 9_000);
    now += 5_000;
    lags.record('late', 50);
    expect(lags.over(2_000)).toEqual([]);
  });

  it('forgets a lag within a quarter of the window after it leaves it, not a whole window later', () => {
    let now = 10_000;
    const lags = new AccountLags(1_000, () => now);
    lags.record('late', 3_000);
    now += 1_000;
    expect(lags.over(2_000)).toEqual([]);
  });
});

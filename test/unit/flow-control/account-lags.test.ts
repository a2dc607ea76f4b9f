import { AccountLags } from '../../../src/domain/flow-control/account-lags';

describe('AccountLags', () => {
  it('names the accounts whose worst lag over the window is past the bound, with that lag', () => {
    const lags = new AccountLags(5, () => 10_000);
    lags.record('late', 2_500);
    lags.record('late', 100);
    lags.record('prompt', 300);
    expect(lags.over(2_000)).toEqual([{ accountId: 'late', lagMs: 2_500 }]);
  });

  it('forgets lags older than the window', () => {
    let now = 10_000;
    const lags = new AccountLags(5, () => now);
    lags.record('late', 9_000);
    now += 5_000;
    lags.record('late', 50);
    expect(lags.over(2_000)).toEqual([]);
  });
});

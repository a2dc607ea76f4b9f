import { AttemptSlots, throttledRetryDelayMs } from '../../../src/domain/webhooks/attempt-slots';

describe('AttemptSlots: what one account and one endpoint hold at once', () => {
  it("lets an account hold at most perAccount places; another account's attempt still enters", () => {
    const slots = new AttemptSlots({ perAccount: 2, perEndpoint: 2 });
    slots.enter('acct_a', 'ep_1');
    slots.enter('acct_a', 'ep_2');
    expect(slots.enter('acct_a', 'ep_3')).toBeNull();
    expect(slots.enter('acct_b', 'ep_4')).toEqual(expect.any(Function));
    expect([slots.inFlight('acct_a'), slots.full('acct_a'), slots.full('acct_b')]).toEqual([2, true, false]);
  });

  it('lets an endpoint hold at most perEndpoint places; the same account reaches its other endpoints', () => {
    const slots = new AttemptSlots({ perAccount: 4, perEndpoint: 1 });
    slots.enter('acct_a', 'ep_1');
    expect(slots.enter('acct_a', 'ep_1')).toBeNull();
    expect(slots.enter('acct_a', 'ep_2')).toEqual(expect.any(Function));
  });

  it('frees a place only once, and tells whoever listens which account it was', () => {
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 });
    const freed: string[] = [];
    slots.onFree((accountId) => freed.push(accountId));
    const leave = slots.enter('acct_a', 'ep_1')!;
    leave();
    leave();
    expect([slots.inFlight('acct_a'), freed]).toEqual([0, ['acct_a']]);
    expect(slots.enter('acct_a', 'ep_1')).toEqual(expect.any(Function));
  });
});

describe('throttledRetryDelayMs', () => {
  it('doubles from 1 s up to a minute, half of it random', () => {
    expect([throttledRetryDelayMs(1, 0), throttledRetryDelayMs(1, 1)]).toEqual([500, 1_000]);
    expect([throttledRetryDelayMs(3, 0), throttledRetryDelayMs(3, 1)]).toEqual([2_000, 4_000]);
    expect([throttledRetryDelayMs(20, 0), throttledRetryDelayMs(20, 1)]).toEqual([30_000, 60_000]);
  });
});

import { throttledRetryDelayMs, ThrottledTurns } from '../../../src/domain/flow-control/throttled-turns';

describe('throttledRetryDelayMs', () => {
  it('doubles from 1 s up to a minute, half of it random', () => {
    expect([throttledRetryDelayMs(1, 0), throttledRetryDelayMs(1, 1)]).toEqual([500, 1_000]);
    expect([throttledRetryDelayMs(3, 0), throttledRetryDelayMs(3, 1)]).toEqual([2_000, 4_000]);
    expect([throttledRetryDelayMs(20, 0), throttledRetryDelayMs(20, 1)]).toEqual([30_000, 60_000]);
  });
});

describe('ThrottledTurns', () => {
  /** Keys left after one key waits, then `laterMs` on, another. */
  function keysAfterSecondWait(laterMs: number): number {
    let now = 0;
    const turns = new ThrottledTurns(() => now);
    turns.wait('acct_a', 'delivery-1-ep', 1, 1_000, 1);
    now = laterMs;
    turns.wait('acct_b', 'delivery-2-ep', 1, 1_000, 1);
    return turns.keys;
  }

  it('forgets a key whose deliveries never came back, when any other key waits', () => {
    expect(keysAfterSecondWait(120_000)).toBe(1);
  });

  it('keeps a key whose deliveries are still due back', () => {
    expect(keysAfterSecondWait(2_000)).toBe(2);
  });

  it('keeps the place of a delivery refused again: only those throttled before it are ahead of it', () => {
    const turns = new ThrottledTurns(() => 0);
    for (const delivery of ['delivery-1-ep', 'delivery-2-ep', 'delivery-3-ep']) turns.wait('acct_a', delivery, 1, 0, 1);
    expect([turns.wait('acct_a', 'delivery-1-ep', 1, 0, 1), turns.wait('acct_a', 'delivery-3-ep', 1, 0, 1)]).toEqual([0, 2_000]);
  });

  it('drops a key once its last waiting delivery is served', () => {
    const turns = new ThrottledTurns(() => 0);
    turns.wait('acct_a', 'delivery-1-ep', 1, 1_000, 1);
    turns.served('acct_a', 'delivery-1-ep');
    expect(turns.keys).toBe(0);
  });

  it("tells when the last of a key's deliveries that never came back was due, as it forgets the key", () => {
    let now = 0;
    const gone: Array<[string, number]> = [];
    const turns = new ThrottledTurns(() => now, (key, at) => gone.push([key, at]));
    turns.wait('acct_a', 'delivery-1-ep', 1, 1_000, 1);
    turns.wait('acct_a', 'delivery-2-ep', 1, 2_000, 1);
    now = 120_000;
    expect(turns.waiting('acct_a')).toBe(0);
    expect(gone).toEqual([['acct_a', 2_000]]);
  });
});

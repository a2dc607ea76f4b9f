import { retryWithBackoff } from '../../../src/infra/retry-with-backoff';

/** An attempt that fails its first `failures` calls, recording when each call came (fake time). */
function failingFirst(failures: number) {
  const calls: number[] = [];
  const attempt = async () => {
    calls.push(Date.now());
    if (calls.length <= failures) throw new Error(`failure ${calls.length}`);
  };
  return { calls, attempt };
}

describe('retryWithBackoff', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('tries again until the call succeeds, the wait doubling after each failure up to its maximum', async () => {
    const { calls, attempt } = failingFirst(4);
    const done = retryWithBackoff(attempt, { firstMs: 100, maxMs: 300 }, () => undefined);
    await jest.runAllTimersAsync();
    await done;
    expect(calls).toEqual([0, 100, 300, 600, 900]);
  });

  it('waits before its first try when the call has already failed', async () => {
    const { calls, attempt } = failingFirst(1);
    const done = retryWithBackoff(attempt, { firstMs: 100, maxMs: 5_000 }, () => undefined, 1);
    await jest.runAllTimersAsync();
    await done;
    expect(calls).toEqual([100, 300]);
  });

  it('gives up when onFailure says so, having told it each failure', async () => {
    const { calls, attempt } = failingFirst(10);
    const told: unknown[] = [];
    const done = retryWithBackoff(attempt, { firstMs: 100, maxMs: 5_000 }, (err) => told.push(err) < 2);
    await jest.runAllTimersAsync();
    await done;
    expect([calls.length, told.length]).toEqual([2, 2]);
  });

  it('tells onFailure the wait before the next try, and waits through the sleep it is given', async () => {
    const { attempt } = failingFirst(3);
    const waitsTold: number[] = [];
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);
    await retryWithBackoff(attempt, { firstMs: 100, maxMs: 300, sleep }, (_, wait) => void waitsTold.push(wait));
    expect([waitsTold, slept]).toEqual([[100, 200, 300], [100, 200, 300]]);
  });
});

import { RetryAfterAdvice } from '../../../src/domain/flow-control/retry-after';

/** `random` 0.999… answers the advice itself, 0 the least of its range. */
function advice(random = () => 0.9999) {
  let now = 1_000_000;
  const a = new RetryAfterAdvice(() => now, random);
  return { a, advance: (ms: number) => (now += ms) };
}

const times = (n: number, f: () => void) => Array.from({ length: n }, f);

describe('Retry-After advice for a refused ingest', () => {
  it('is 1 s when the process refuses about as many calls as it takes', () => {
    const { a } = advice();
    times(20, () => a.taken());
    times(20, () => a.refused());
    expect(a.seconds()).toBe(1);
  });

  it('is 1 s at the first refusal after a quiet period', () => {
    const { a } = advice();
    a.refused();
    expect(a.seconds()).toBe(1);
  });

  it('grows with the calls refused per call taken', () => {
    const { a } = advice();
    times(10, () => a.taken());
    times(50, () => a.refused());
    expect(a.seconds()).toBe(5);
  });

  it('never exceeds its maximum, however oversubscribed', () => {
    const { a } = advice();
    a.taken();
    times(1_000, () => a.refused());
    expect(a.seconds()).toBe(10);
  });

  it('spreads callers refused together between half the advice and the advice', () => {
    const draws = [0, 0.5, 0.9999];
    const { a } = advice(() => draws.shift()!);
    a.taken();
    times(10, () => a.refused());
    expect([a.seconds(), a.seconds(), a.seconds()]).toEqual([5, 8, 10]);
  });

  it('forgets what happened before its window', () => {
    const { a, advance } = advice();
    a.taken();
    times(100, () => a.refused());
    advance(10_000);
    a.taken();
    expect(a.seconds()).toBe(1);
  });
});

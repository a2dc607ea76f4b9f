import { RetryAfterAdvice } from '../../../src/domain/flow-control/retry-after';

/** `random` 0.999… answers the advice itself, 0 the least of its range. */
function advice(random = () => 0.9999) {
  let now = 1_000_000;
  const a = new RetryAfterAdvice(() => now, random);
  return { a, advance: (ms: number) => (now += ms) };
}

const times = (n: number, f: () => void) => Array.from({ length: n }, f);

describe('Retry-After advice for a refused ingest', () => {
  it('is 1 s at the first refusal after a quiet period', () => {
    const { a } = advice();
    expect(a.refuse()).toBe(1);
  });

  it('is 1 s while the process refuses fewer than a third as many calls as it takes', () => {
    const { a } = advice();
    times(30, () => a.taken());
    times(9, () => a.refuse());
    expect(a.refuse()).toBe(1);
  });

  it('grows by 3 s per call refused per call taken', () => {
    const { a } = advice();
    times(10, () => a.taken());
    times(50, () => a.refuse());
    expect(a.refuse()).toBe(15);
  });

  it('never exceeds 30 s, however oversubscribed', () => {
    const { a } = advice();
    a.taken();
    times(1_000, () => a.refuse());
    expect(a.refuse()).toBe(30);
  });

  it('spreads callers refused together between half the advice and the advice', () => {
    const draws = [0, 0, 0, 0, 0, 0.5, 0.9999];
    const spread = new RetryAfterAdvice(() => 1_000_000, () => draws.shift()!);
    spread.taken();
    times(4, () => spread.refuse());
    // 4, then 5, then 6 refused per call taken: advice 12, 15, 18 s.
    expect([spread.refuse(), spread.refuse(), spread.refuse()]).toEqual([6, 12, 18]);
  });

  it('forgets what happened before its window', () => {
    const { a, advance } = advice();
    a.taken();
    times(100, () => a.refuse());
    advance(10_000);
    a.taken();
    expect(a.refuse()).toBe(1);
  });
});

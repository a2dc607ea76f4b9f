import { SlidingCount } from '../../../src/domain/flow-control/sliding-count';

describe('SlidingCount', () => {
  it('sums what was added within the window', () => {
    let now = 10_000;
    const c = new SlidingCount<'a' | 'b'>(5, () => now);
    c.add('a');
    now += 1_000;
    c.add('a', 2);
    c.add('b');
    expect(c.total('a')).toBe(3);
    expect(c.total('b')).toBe(1);
  });

  it('drops seconds older than the window', () => {
    let now = 10_000;
    const c = new SlidingCount<'a'>(5, () => now);
    c.add('a', 4);
    now += 5_000;
    c.add('a');
    expect(c.total('a')).toBe(1);
  });
});

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

  it('measures a rate from the first second it recorded, not over the quiet before it', () => {
    let now = 10_000;
    const c = new SlidingCount<'a'>(5, () => now);
    c.add('a', 10);
    now += 1_000;
    c.add('a', 10);
    expect(c.perSecond('a')).toBe(10);
  });

  it('has a rate of 0 when nothing was recorded', () => {
    expect(new SlidingCount<'a'>(5).perSecond('a')).toBe(0);
  });
});

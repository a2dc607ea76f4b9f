import { AdaptiveLimit, nextLimit } from '../../../src/domain/flow-control/adaptive-limit';

const tuning = { min: 8, max: 400, targetMs: 1_000, increase: 8, decrease: 0.75, intervalMs: 1_000 };

describe('the adaptive limit', () => {
  it('shrinks by a quarter when the latency is over target', () => {
    expect(nextLimit(200, { p90Ms: 1_500, wasFull: true }, tuning)).toBe(150);
  });

  it('never shrinks below its minimum', () => {
    expect(nextLimit(9, { p90Ms: 10_000, wasFull: true }, tuning)).toBe(8);
  });

  it('grows by a step when the latency is on target and the limit held work back', () => {
    expect(nextLimit(100, { p90Ms: 1_000, wasFull: true }, tuning)).toBe(108);
  });

  it('never grows past its maximum', () => {
    expect(nextLimit(396, { p90Ms: 200, wasFull: true }, tuning)).toBe(400);
  });

  it('stays as it is when demand, not the limit, was what bound', () => {
    expect(nextLimit(100, { p90Ms: 200, wasFull: false }, tuning)).toBe(100);
  });

  it('stays as it is when nothing was measured', () => {
    expect(nextLimit(100, { p90Ms: undefined, wasFull: true }, tuning)).toBe(100);
  });

  it('decides once per interval, from the p90 of what the interval measured', () => {
    let now = 0;
    const limit = new AdaptiveLimit({ ...tuning, max: 100 }, () => now);
    for (let i = 0; i < 8; i++) expect(limit.observe(2_000)).toBe(false); // within the interval
    expect(limit.value).toBe(100);
    now = 1_000;
    expect(limit.observe(100)).toBe(true); // p90 of nine samples, eight of them 2 s
    expect(limit.value).toBe(75);
    now = 2_000;
    limit.markFull();
    limit.observe(100);
    expect(limit.value).toBe(83);
  });
});

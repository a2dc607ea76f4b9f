import { billingPeriodAt, secondsUntil } from '../../../src/domain/limits/billing-period';

describe('billing period: the calendar month in UTC', () => {
  it('is named by its month and ends at the first instant of the next', () => {
    const p = billingPeriodAt(new Date('2026-11-22T13:45:10.123Z'));
    expect(p.id).toBe('2026-11');
    expect(p.end.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it('rolls over the year: December ends on 1 January of the next year', () => {
    const p = billingPeriodAt(new Date('2026-12-31T23:59:59.999Z'));
    expect(p.id).toBe('2026-12');
    expect(p.end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('the first instant of a month belongs to that month, the last millisecond before it to the previous', () => {
    expect(billingPeriodAt(new Date('2027-01-01T00:00:00.000Z')).id).toBe('2027-01');
    expect(billingPeriodAt(new Date('2026-12-31T23:59:59.999Z')).id).toBe('2026-12');
  });

  it('is UTC whatever the local time zone says (a US evening on the 31st is already next month in UTC)', () => {
    // 2026-03-31T20:00-05:00 is 2026-04-01T01:00Z
    expect(billingPeriodAt(new Date('2026-03-31T20:00:00-05:00')).id).toBe('2026-04');
  });

  it('handles February in leap and common years', () => {
    expect(billingPeriodAt(new Date('2028-02-29T12:00:00Z')).end.toISOString()).toBe('2028-03-01T00:00:00.000Z');
    expect(billingPeriodAt(new Date('2027-02-28T12:00:00Z')).end.toISOString()).toBe('2027-03-01T00:00:00.000Z');
  });

  it('pads the month in the id', () => {
    expect(billingPeriodAt(new Date('2026-01-15T00:00:00Z')).id).toBe('2026-01');
  });

  it('reset_at is the ISO form of the next period start', () => {
    expect(billingPeriodAt(new Date('2026-11-30T23:00:00Z')).end.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });
});

describe('secondsUntil (Retry-After, retry_after)', () => {
  const now = new Date('2026-11-22T00:00:00.000Z');
  const at = (ms: number) => new Date(now.getTime() + ms);

  it('rounds up to whole seconds', () => {
    expect(secondsUntil(at(59_100), now)).toBe(60);
    expect(secondsUntil(at(60_000), now)).toBe(60);
    expect(secondsUntil(at(1_001), now)).toBe(2);
  });

  it('is at least 1, even when the instant is reached or passed', () => {
    expect(secondsUntil(at(100), now)).toBe(1);
    expect(secondsUntil(at(0), now)).toBe(1);
    expect(secondsUntil(at(-5_000), now)).toBe(1);
  });
});

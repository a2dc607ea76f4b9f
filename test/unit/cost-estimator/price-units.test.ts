import { formulaKindOf, PER_MILLION_THINGS, PRICE_UNITS } from '../../../src/domain/cost-estimator';

describe('priceUnit forms and their formula (CONTRACT §5)', () => {
  it.each(['per hour', 'per vCPU-hour', 'per GB-hour'])('"%s" is hourly: quantity × price × hoursPerMonth', (unit) => {
    expect(formulaKindOf(unit)).toBe('hourly');
  });

  it.each(['per GB/month', 'per GB'])('"%s" is per GB: quantity × price × gbPerMonth', (unit) => {
    expect(formulaKindOf(unit)).toBe('per_gb');
  });

  it.each([
    'per month',
    'per metric/month',
    'per alarm/month',
    'per secret/month',
    'per key/month',
    'per policy/month',
    'per server/month',
  ])('"%s" is flat monthly: quantity × price', (unit) => {
    expect(formulaKindOf(unit)).toBe('flat_monthly');
  });

  it.each([
    'per GB-second',
    ...PER_MILLION_THINGS.map((thing) => `per million ${thing}`),
    'per 10K requests',
    'per 10K operations',
    'per 100K reads',
    'per 100K writes',
    'per 1K transactions',
  ])('"%s" is a per-unit block: quantity × price', (unit) => {
    expect(formulaKindOf(unit)).toBe('per_unit_block');
  });

  it('lists 36 allowed forms in all', () => {
    expect(PRICE_UNITS).toHaveLength(3 + 2 + 7 + 1 + 14 + 5);
    expect(PRICE_UNITS.every((unit) => formulaKindOf(unit) !== undefined)).toBe(true);
  });

  it.each(['per Hour', 'per hour ', 'per million widgets', 'per 1K requests', 'per instance-hour', 'hourly', ''])(
    'refuses "%s": only exact spec forms are accepted',
    (unit) => {
      expect(formulaKindOf(unit)).toBeUndefined();
    },
  );
});

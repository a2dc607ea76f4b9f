import { estimateCost } from '../../../src/domain/cost-estimator';
import { estimate, FIXED_NOW, shippedCatalog } from './fixtures';

describe('estimate result', () => {
  it('keeps request order in the breakdown, one line per item (repeats included)', async () => {
    const result = await estimate(
      { provider: 'azure', service: 'Virtual Machines', instance: 'D2s v5', quantity: 1 },
      { provider: 'aws', service: 'Amazon EC2', instance: 't3.micro', quantity: 1 },
      { provider: 'gcp', service: 'Compute Engine', instance: 'e2-micro', quantity: 1 },
      { provider: 'aws', service: 'Amazon EC2', instance: 't3.micro', quantity: 2 },
    );
    expect(result.breakdown.map((l) => [l.provider, l.instance, l.quantity])).toEqual([
      ['azure', 'D2s v5', 1],
      ['aws', 't3.micro', 1],
      ['gcp', 'e2-micro', 1],
      ['aws', 't3.micro', 2],
    ]);
  });

  it('stamps generatedAt from the injected clock as ISO 8601 UTC with milliseconds', async () => {
    const result = await estimate({ provider: 'aws', service: 'AWS Lambda', instance: 'Requests', quantity: 1 });
    expect(result.generatedAt).toBe('2026-11-22T10:11:12.345Z');
    expect(result.generatedAt).toBe(FIXED_NOW.toISOString());
  });

  it('uses the system clock by default', async () => {
    const before = Date.now();
    const result = estimateCost(await shippedCatalog(), [{ provider: 'aws', service: 'AWS Lambda', instance: 'Requests', quantity: 1 }]);
    expect(result.generatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(result.generatedAt)).toBeGreaterThanOrEqual(before);
  });

  it('returns exactly the documented fields', async () => {
    const result = await estimate({ provider: 'aws', service: 'AWS Lambda', instance: 'Requests', quantity: 1 });
    expect(Object.keys(result).sort()).toEqual(['breakdown', 'generatedAt', 'totalAnnualUsd', 'totalMonthlyUsd']);
    expect(Object.keys(result.breakdown[0]!).sort()).toEqual(
      ['instance', 'monthlyUsd', 'priceUnit', 'provider', 'quantity', 'service', 'unitPrice'].sort(),
    );
  });
});

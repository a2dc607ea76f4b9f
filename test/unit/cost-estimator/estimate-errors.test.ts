import { DomainError, ValidationError } from '../../../src/domain/errors';
import { estimate, thrownBy } from './fixtures';

const m5 = { provider: 'aws' as const, service: 'Amazon EC2', instance: 'm5.large', quantity: 1 };

/** CONTRACT §5: items that are well-formed but cannot be priced. */
describe('estimate errors', () => {
  it('422 unknown_service when the provider has no such service, naming the item index', async () => {
    const err = await thrownBy(() => estimate(m5, { provider: 'aws', service: 'Amazon EC3', quantity: 1 }));
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({
      code: 'unknown_service',
      message: 'items[1]: no catalog entry for aws / Amazon EC3.',
      data: { index: 1 },
    });
  });

  it('422 unknown_service for a service of another provider', async () => {
    const err = await thrownBy(() => estimate({ provider: 'gcp', service: 'Amazon EC2', instance: 'm5.large', quantity: 1 }));
    expect(err).toMatchObject({ code: 'unknown_service', message: 'items[0]: no catalog entry for gcp / Amazon EC2.' });
  });

  it('matches service names exactly, as written in the catalog', async () => {
    const err = await thrownBy(() => estimate({ provider: 'aws', service: 'amazon ec2', instance: 'm5.large', quantity: 1 }));
    expect(err).toMatchObject({ code: 'unknown_service' });
  });

  it('422 unknown_instance when the service has no such instance, listing the ones it has', async () => {
    const err = await thrownBy(() => estimate(m5, m5, { provider: 'aws', service: 'Amazon EC2', instance: 'm5.huge', quantity: 1 }));
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({
      code: 'unknown_instance',
      message: 'items[2]: no catalog entry for aws / Amazon EC2 / m5.huge.',
      data: { index: 2, instances: ['c5.xlarge', 'm5.large', 'm5.xlarge', 'r5.large', 't3.medium', 't3.micro'] },
    });
  });

  it('422 instance_required when instance is omitted and the service has several, listing them', async () => {
    const err = await thrownBy(() => estimate({ provider: 'aws', service: 'Amazon S3', quantity: 1, gbPerMonth: 10 }));
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({
      code: 'instance_required',
      data: { index: 0, instances: ['Glacier Deep Archive', 'Glacier Flexible Retrieval', 'Standard', 'Standard-Infrequent Access'] },
    });
    expect((err as Error).message).toMatch(/^items\[0\]: aws \/ Amazon S3 has 4 instances/);
  });

  it('uses the only instance when instance is omitted and the service has exactly one', async () => {
    const { breakdown } = await estimate({ provider: 'aws', service: 'Amazon ECR', quantity: 1, gbPerMonth: 50 });
    expect(breakdown[0]).toMatchObject({ service: 'Amazon ECR', instance: 'Storage', monthlyUsd: 5 });
  });

  it.each([
    ['per GB/month', { provider: 'aws' as const, service: 'Amazon S3', instance: 'Standard', quantity: 1 }],
    ['per GB', { provider: 'azure' as const, service: 'Bandwidth', instance: 'Internet egress (first 10 TB)', quantity: 1 }],
  ])('400 when gbPerMonth is missing on an item priced %s, with details path items.N.gbPerMonth', async (_unit, item) => {
    const err = await thrownBy(() => estimate(m5, item));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({
      code: 'invalid_request',
      data: { details: [{ path: 'items.1.gbPerMonth', message: expect.stringMatching(/required/) }] },
    });
  });

  it('does not require gbPerMonth on items that are not priced per GB', async () => {
    await expect(estimate(m5)).resolves.toMatchObject({ totalMonthlyUsd: 70.08 });
  });

  it('reports the first failing item in request order', async () => {
    const err = await thrownBy(() =>
      estimate(m5, { provider: 'aws', service: 'Nope', quantity: 1 }, { provider: 'aws', service: 'Amazon EC2', instance: 'x', quantity: 1 }),
    );
    expect(err).toMatchObject({ code: 'unknown_service', data: { index: 1 } });
  });

  describe('amounts beyond what an estimate reports exactly (annual $10 trillion)', () => {
    const gp3 = { provider: 'aws' as const, service: 'Amazon EBS', instance: 'gp3', quantity: 1 };

    it('422 estimate_out_of_range naming the item for a quantity of 1e308 (once priced as null)', async () => {
      const err = await thrownBy(() => estimate(m5, { ...m5, quantity: 1e308 }));
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ code: 'estimate_out_of_range', data: { index: 1 } });
      expect((err as Error).message).toBe(
        'items[1] costs more than the largest amount an estimate reports ($10,000,000,000,000 a year); lower quantity, hoursPerMonth or gbPerMonth.',
      );
    });

    it('422 for a gbPerMonth of 1e308', async () => {
      const err = await thrownBy(() => estimate({ ...gp3, gbPerMonth: 1e308 }));
      expect(err).toMatchObject({ code: 'estimate_out_of_range', data: { index: 0 } });
    });

    it('422 without an index when every item fits but the total does not', async () => {
      // 1e10 × 0.096 × 730 = 700,800,000,000 a month: 8.4 trillion a year each, 16.8 trillion together.
      const big = { ...m5, quantity: 1e10 };
      await expect(estimate(big)).resolves.toMatchObject({ totalMonthlyUsd: 700_800_000_000, totalAnnualUsd: 8_409_600_000_000 });
      const err = await thrownBy(() => estimate(big, big));
      expect(err).toMatchObject({ code: 'estimate_out_of_range', data: {} });
      expect((err as Error).message).toMatch(/^The estimate totals more than/);
    });

    it('the largest amount still reported is exact to the cent', async () => {
      // 10 trillion a year = 833,333,333,333.33 a month at most: 0.08 × gbPerMonth × quantity.
      const result = await estimate({ ...gp3, quantity: 1, gbPerMonth: 10_416_666_666_666.625 });
      expect(result.totalMonthlyUsd).toBe(833_333_333_333.33);
      expect(result.totalAnnualUsd).toBe(9_999_999_999_999.96);
    });
  });
});

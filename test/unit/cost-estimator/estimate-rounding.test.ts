import { estimate } from './fixtures';

const natHours = (hoursPerMonth: number) => ({
  provider: 'aws' as const,
  service: 'Amazon VPC',
  instance: 'NAT Gateway',
  quantity: 1,
  hoursPerMonth,
});
const lambdaRequests = (millions: number) => ({ provider: 'aws' as const, service: 'AWS Lambda', instance: 'Requests', quantity: millions });

/** CONTRACT §5: exact decimals, half-up to cents per line, total from the unrounded sum, annual = 12 × monthly. */
describe('rounding and totals', () => {
  describe('each line is rounded half-up to cents', () => {
    it('rounds a line of exactly half a cent up (0.125 → 0.13)', async () => {
      // ElastiCache Serverless: 0.125 per GB-hour × 1 GB × 1 hour
      const result = await estimate({
        provider: 'aws',
        service: 'Amazon ElastiCache',
        instance: 'Serverless data storage (Redis OSS)',
        quantity: 1,
        hoursPerMonth: 1,
      });
      expect(result.breakdown[0]?.monthlyUsd).toBe(0.13);
      expect(result.totalMonthlyUsd).toBe(0.13);
    });

    it('rounds a flat monthly line of half a cent up (0.25 hosted zones × 0.50 = 0.125 → 0.13)', async () => {
      const result = await estimate({ provider: 'aws', service: 'Amazon Route 53', instance: 'Hosted zone', quantity: 0.25 });
      expect(result.breakdown[0]?.monthlyUsd).toBe(0.13);
    });

    it('rounds just under half a cent down (0.124998 → 0.12)', async () => {
      const result = await estimate(lambdaRequests(0.62499)); // 0.2 × 0.62499 = 0.124998
      expect(result.breakdown[0]?.monthlyUsd).toBe(0.12);
    });
  });

  describe('the total comes from the unrounded sum of the lines, not from the rounded lines', () => {
    it('three lines of 0.005 show 0.01 each, but total 0.02 (0.015 rounded), not 0.03', async () => {
      const result = await estimate(lambdaRequests(0.025), lambdaRequests(0.025), lambdaRequests(0.025));
      expect(result.breakdown.map((l) => l.monthlyUsd)).toEqual([0.01, 0.01, 0.01]);
      expect(result.totalMonthlyUsd).toBe(0.02);
    });

    it('five lines of 0.004 show 0.00 each, but total 0.02', async () => {
      const items = Array.from({ length: 5 }, () => lambdaRequests(0.02));
      const result = await estimate(...items);
      expect(result.breakdown.map((l) => l.monthlyUsd)).toEqual([0, 0, 0, 0, 0]);
      expect(result.totalMonthlyUsd).toBe(0.02);
    });
  });

  describe('binary-float traps give exact cents', () => {
    it('0.045 × 5 hours is exactly 0.225 → 0.23 (floats give 0.22499999999999998 → 0.22)', async () => {
      const result = await estimate(natHours(5));
      expect(result.breakdown[0]?.monthlyUsd).toBe(0.23);
    });

    it('0.1 NAT gateway × 0.045 × 730 is exactly 3.285 → 3.29 (floats give 3.28)', async () => {
      const result = await estimate({ ...natHours(730), quantity: 0.1 });
      expect(result.breakdown[0]?.monthlyUsd).toBe(3.29);
    });

    it('0.3 × 0.023 × 150 GB is exactly 1.035 → 1.04 (floats give 1.03)', async () => {
      const result = await estimate({ provider: 'aws', service: 'Amazon S3', instance: 'Standard', quantity: 0.3, gbPerMonth: 150 });
      expect(result.breakdown[0]?.monthlyUsd).toBe(1.04);
    });

    it('0.1 + 0.2 million requests at 1.00 total exactly 0.30, and 3.60 a year', async () => {
      const http = (quantity: number) => ({ provider: 'aws' as const, service: 'Amazon API Gateway', instance: 'HTTP API', quantity });
      const result = await estimate(http(0.1), http(0.2));
      expect(result.totalMonthlyUsd).toBe(0.3);
      expect(result.totalAnnualUsd).toBe(3.6);
    });

    it('three lines of exactly 0.225 total 0.675 → 0.68 (a float sum gives 0.6749999999999999 → 0.67)', async () => {
      const result = await estimate(natHours(5), natHours(5), natHours(5));
      expect(result.breakdown.map((l) => l.monthlyUsd)).toEqual([0.23, 0.23, 0.23]);
      expect(result.totalMonthlyUsd).toBe(0.68);
    });
  });

  describe('totalAnnualUsd is twelve times totalMonthlyUsd', () => {
    it('multiplies the rounded monthly total (0.675 → 0.68 → 8.16, not 12 × 0.675 = 8.10)', async () => {
      const result = await estimate(natHours(5), natHours(5), natHours(5));
      expect(result.totalAnnualUsd).toBe(8.16);
    });

    it('holds for a mixed estimate', async () => {
      const result = await estimate(
        { provider: 'aws', service: 'Amazon EC2', instance: 'm5.large', quantity: 3 },
        { provider: 'gcp', service: 'Cloud Storage', instance: 'Standard', quantity: 1, gbPerMonth: 2048 },
        { provider: 'azure', service: 'Azure OpenAI', instance: 'GPT-4o output tokens', quantity: 7.5 },
      );
      // 210.24 + 40.96 + 75.00
      expect(result.totalMonthlyUsd).toBe(326.2);
      expect(result.totalAnnualUsd).toBe(3914.4);
    });

    it('holds at 100 items', async () => {
      const items = Array.from({ length: 100 }, () => ({ provider: 'aws' as const, service: 'Amazon EC2', instance: 'm5.large', quantity: 1 }));
      const result = await estimate(...items);
      expect(result.totalMonthlyUsd).toBe(7008);
      expect(result.totalAnnualUsd).toBe(84096);
    });
  });

  it('returns every amount as a number with at most two decimals', async () => {
    const result = await estimate(
      { provider: 'aws', service: 'AWS Lambda', instance: 'Duration (x86)', quantity: 1_234_567 },
      { provider: 'gcp', service: 'Compute Engine', instance: 'e2-micro', quantity: 3, hoursPerMonth: 333.3 },
      natHours(5),
    );
    const amounts = [result.totalMonthlyUsd, result.totalAnnualUsd, ...result.breakdown.map((l) => l.monthlyUsd)];
    for (const amount of amounts) {
      expect(typeof amount).toBe('number');
      expect(String(amount)).toMatch(/^\d+(\.\d{1,2})?$/);
    }
  });
});

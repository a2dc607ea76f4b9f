import type { EstimateItem } from '../../../src/domain/cost-estimator';
import { estimate } from './fixtures';

/** What a case pins on its line; the whole line is checked once, in the last test. */
type LineFields = { priceUnit?: string; unitPrice?: number; monthlyUsd: number };
type LineCase = readonly [name: string, item: EstimateItem, line: LineFields];
type CatalogRow = readonly [EstimateItem['provider'], string, string, number, string, number];

/** Every case is one item estimated against the shipped catalog, its line matched against the case's fields. */
function pricesEach(cases: readonly LineCase[]): void {
  it.each(cases)('%s', async (_name, item, line) => {
    const { breakdown } = await estimate(item);
    expect(breakdown[0]).toMatchObject(line);
  });
}

/** `[provider, service, instance, quantity, priceUnit, monthlyUsd]`, each named after its own values. */
function catalogRows(rows: readonly CatalogRow[]): LineCase[] {
  return rows.map(([provider, service, instance, quantity, priceUnit, monthlyUsd]) => [
    `${provider} / ${service} / ${instance} × ${quantity} (${priceUnit}) = ${monthlyUsd}`,
    { provider, service, instance, quantity },
    { priceUnit, monthlyUsd },
  ]);
}

/** CONTRACT §5 line formulas, one per priceUnit kind, priced from the shipped catalog. */
describe('monthlyUsd of a line', () => {
  describe('hourly prices (per hour, per vCPU-hour, per GB-hour): quantity × price × hoursPerMonth', () => {
    const m5 = { provider: 'aws', service: 'Amazon EC2', instance: 'm5.large' } as const;
    pricesEach([
      ['uses 730 hours when hoursPerMonth is omitted', { ...m5, quantity: 3 }, { monthlyUsd: 210.24 }], // 3 × 0.096 × 730
      ['uses the given hoursPerMonth', { ...m5, quantity: 2, hoursPerMonth: 100 }, { monthlyUsd: 19.2 }], // 2 × 0.096 × 100
      ['costs nothing for 0 hours', { ...m5, quantity: 2, hoursPerMonth: 0 }, { monthlyUsd: 0 }],
      [
        'prices per vCPU-hour with quantity as vCPUs',
        { provider: 'aws', service: 'AWS Fargate', instance: 'vCPU (Linux/x86)', quantity: 4 },
        { priceUnit: 'per vCPU-hour', unitPrice: 0.04048, monthlyUsd: 118.2 }, // 118.2016
      ],
      [
        'prices per GB-hour with quantity as GB',
        { provider: 'aws', service: 'AWS Fargate', instance: 'Memory (Linux/x86)', quantity: 8 },
        { priceUnit: 'per GB-hour', monthlyUsd: 25.96 }, // 25.9588
      ],
    ]);
  });

  describe('per-GB prices (per GB/month, per GB): quantity × price × gbPerMonth', () => {
    const s3 = { provider: 'aws', service: 'Amazon S3', instance: 'Standard' } as const;
    pricesEach([
      ['prices storage per GB/month', { ...s3, quantity: 1, gbPerMonth: 1000 }, { priceUnit: 'per GB/month', monthlyUsd: 23 }],
      ['multiplies by quantity too (2 buckets of 1,000 GB)', { ...s3, quantity: 2, gbPerMonth: 1000 }, { monthlyUsd: 46 }],
      [
        'prices data transfer per GB',
        { provider: 'aws', service: 'AWS Data Transfer', instance: 'Internet egress (first 10 TB)', quantity: 1, gbPerMonth: 500 },
        { priceUnit: 'per GB', monthlyUsd: 45 },
      ],
      ['costs nothing for 0 GB', { provider: 'gcp', service: 'Cloud Storage', instance: 'Archive', quantity: 1, gbPerMonth: 0 }, { monthlyUsd: 0 }],
      ['ignores hoursPerMonth', { ...s3, quantity: 1, gbPerMonth: 1000, hoursPerMonth: 10 }, { monthlyUsd: 23 }],
    ]);
  });

  // Flat monthly prices and per-unit blocks share one formula; only what the quantity counts differs.
  describe('flat monthly prices (per month, per <thing>/month) and per-unit blocks (per million/100K/10K/1K <things>, per GB-second): quantity × price', () => {
    pricesEach([
      ...catalogRows([
        ['aws', 'Amazon CloudWatch', 'Dashboard', 4, 'per month', 12],
        ['aws', 'Amazon CloudWatch', 'Custom metrics', 200, 'per metric/month', 60],
        ['aws', 'Amazon CloudWatch', 'Standard resolution alarm', 15, 'per alarm/month', 1.5],
        ['aws', 'AWS Secrets Manager', 'Secret', 30, 'per secret/month', 12],
        ['aws', 'AWS KMS', 'Customer managed key', 25, 'per key/month', 25],
        ['gcp', 'Cloud Armor', 'Security policy', 2, 'per policy/month', 10],
        ['azure', 'Microsoft Defender for Cloud', 'Defender for Servers Plan 2', 3, 'per server/month', 43.8],
        // A block's quantity counts blocks: 3 at "per million requests" = 3 million requests.
        ['aws', 'AWS Lambda', 'Requests', 3, 'per million requests', 0.6],
        ['aws', 'Amazon Bedrock', 'Claude 3 Haiku input tokens', 120, 'per million tokens', 30],
        ['azure', 'Azure Cosmos DB', 'Serverless request units', 8, 'per million RUs', 2],
        ['aws', 'Amazon CloudFront', 'HTTPS requests (North America)', 500, 'per 10K requests', 5],
        ['gcp', 'Cloud KMS', 'Cryptographic operations', 30, 'per 10K operations', 0.9],
        ['gcp', 'Firestore', 'Document reads', 40, 'per 100K reads', 1.2],
        ['gcp', 'Firestore', 'Document writes', 10, 'per 100K writes', 0.9],
        ['azure', 'Azure AI Vision', 'Image Analysis S1', 12.5, 'per 1K transactions', 12.5],
        // 1,000,000 GB-seconds × 0.0000166667 = 16.6667
        ['aws', 'AWS Lambda', 'Duration (x86)', 1_000_000, 'per GB-second', 16.67],
      ]),
      [
        'ignores hoursPerMonth: the price already covers the month',
        { provider: 'aws', service: 'Amazon CloudWatch', instance: 'Dashboard', quantity: 4, hoursPerMonth: 10 },
        { monthlyUsd: 12 },
      ],
      [
        'ignores hoursPerMonth and gbPerMonth for a block',
        { provider: 'aws', service: 'AWS Lambda', instance: 'Requests', quantity: 3, hoursPerMonth: 1, gbPerMonth: 99 },
        { monthlyUsd: 0.6 },
      ],
    ]);
  });

  it('echoes the item and the matched catalog price on the line', async () => {
    const { breakdown } = await estimate({ provider: 'gcp', service: 'Compute Engine', instance: 'e2-medium', quantity: 2 });
    expect(breakdown).toEqual([
      {
        provider: 'gcp',
        service: 'Compute Engine',
        instance: 'e2-medium',
        quantity: 2,
        unitPrice: 0.033503,
        priceUnit: 'per hour',
        monthlyUsd: 48.91, // 2 × 0.033503 × 730 = 48.91438
      },
    ]);
  });
});

import { readFileSync } from 'node:fs';
import { Catalog, InvalidCatalogError } from '../../../src/domain/cost-estimator';
import { CATALOG_FILE_PATH, loadCatalogFile } from '../../../src/infra/load-catalog-file';

interface RawEntry {
  provider: string;
  category: string;
  service: string;
  instance: string;
  specs: string;
  priceUnit: string;
  priceUsd: number;
  region: string;
}
interface RawFile {
  version: string;
  priced_at: string;
  regions: Record<string, string>;
  entries: RawEntry[];
}

const rawFile = (): RawFile => JSON.parse(readFileSync(CATALOG_FILE_PATH, 'utf8')) as RawFile;

function problemsOf(raw: unknown): readonly string[] {
  try {
    Catalog.parse(raw);
  } catch (err) {
    if (err instanceof InvalidCatalogError) return err.problems;
    throw err;
  }
  throw new Error('expected the catalog to be rejected');
}

describe('Catalog.parse refuses a data file that breaks the catalog rules', () => {
  it('accepts the shipped file', () => {
    expect(() => Catalog.parse(rawFile())).not.toThrow();
  });

  it('refuses a priceUnit outside the spec forms', () => {
    const raw = rawFile();
    raw.entries[0]!.priceUnit = 'per instance-hour';
    expect(problemsOf(raw).join('\n')).toMatch(/entries\.0\.priceUnit/);
  });

  it('refuses a zero or negative price', () => {
    const zero = rawFile();
    zero.entries[3]!.priceUsd = 0;
    expect(problemsOf(zero).join('\n')).toMatch(/entries\.3\.priceUsd/);
    const negative = rawFile();
    negative.entries[3]!.priceUsd = -0.01;
    expect(problemsOf(negative).join('\n')).toMatch(/entries\.3\.priceUsd/);
  });

  it('refuses an unknown provider or category', () => {
    const raw = rawFile();
    raw.entries[0]!.provider = 'oracle';
    raw.entries[1]!.category = 'quantum';
    const text = problemsOf(raw).join('\n');
    expect(text).toMatch(/entries\.0\.provider/);
    expect(text).toMatch(/entries\.1\.category/);
  });

  it('refuses an unexpected field (a typo in the data file)', () => {
    const raw = rawFile() as unknown as { entries: Record<string, unknown>[] };
    raw.entries[0]!.price_usd = 1;
    expect(problemsOf(raw).join('\n')).toMatch(/entries\.0/);
  });

  it('refuses a duplicate (provider, service, instance)', () => {
    const raw = rawFile();
    raw.entries[1] = { ...raw.entries[0]! };
    expect(problemsOf(raw).join('\n')).toMatch(/entries\[1\].*repeats/);
  });

  it('refuses entries out of catalog order', () => {
    const raw = rawFile();
    [raw.entries[0], raw.entries[1]] = [raw.entries[1]!, raw.entries[0]!];
    expect(problemsOf(raw).join('\n')).toMatch(/out of catalog order/);
  });

  it('refuses a catalog without exactly 216 entries and 6 per (provider, category)', () => {
    const raw = rawFile();
    raw.entries.pop();
    const text = problemsOf(raw).join('\n');
    expect(text).toMatch(/215 entries; it must have exactly 216/);
    expect(text).toMatch(/azure\/ai_ml has 5 entries; it must have exactly 6/);
  });

  it('refuses an entry priced in another region than its provider', () => {
    const raw = rawFile();
    raw.entries[0]!.region = 'eu-west-1';
    expect(problemsOf(raw).join('\n')).toMatch(/priced in eu-west-1, but the catalog's aws region is us-east-1/);
  });

  it('refuses a file without a price date', () => {
    const raw = rawFile() as Partial<RawFile>;
    delete raw.priced_at;
    expect(problemsOf(raw).join('\n')).toMatch(/priced_at/);
  });
});

describe('Catalog in memory', () => {
  let catalog: Catalog;
  beforeAll(async () => {
    catalog = await loadCatalogFile();
  });

  it('returns the whole catalog without filters', () => {
    expect(catalog.filter()).toEqual(catalog.entries);
    expect(catalog.filter({})).toHaveLength(216);
  });

  it('filters by provider, keeping catalog order', () => {
    const gcp = catalog.filter({ provider: 'gcp' });
    expect(gcp).toHaveLength(72);
    expect(gcp.every((e) => e.provider === 'gcp')).toBe(true);
    expect(gcp).toEqual(catalog.entries.filter((e) => e.provider === 'gcp'));
  });

  it('filters by category across providers, keeping catalog order (aws, then gcp, then azure)', () => {
    const cache = catalog.filter({ category: 'cache' });
    expect(cache).toHaveLength(18);
    expect(cache.map((e) => e.provider)).toEqual([...Array(6).fill('aws'), ...Array(6).fill('gcp'), ...Array(6).fill('azure')]);
  });

  it('combines both filters', () => {
    const awsCompute = catalog.filter({ provider: 'aws', category: 'compute' });
    expect(awsCompute.map((e) => e.instance)).toEqual(['c5.xlarge', 'm5.large', 'm5.xlarge', 'r5.large', 't3.medium', 't3.micro']);
  });

  it('finds an entry by (provider, service, instance)', () => {
    expect(catalog.find('aws', 'Amazon EC2', 'm5.large')).toMatchObject({ priceUnit: 'per hour', priceUsd: 0.096 });
    expect(catalog.find('gcp', 'Amazon EC2', 'm5.large')).toBeUndefined();
    expect(catalog.find('aws', 'Amazon EC2', 'm5.huge')).toBeUndefined();
  });

  it('lists the instances of a service in catalog order', () => {
    expect(catalog.instancesOf('aws', 'Amazon S3').map((e) => e.instance)).toEqual([
      'Glacier Deep Archive',
      'Glacier Flexible Retrieval',
      'Standard',
      'Standard-Infrequent Access',
    ]);
    expect(catalog.instancesOf('aws', 'No Such Service')).toEqual([]);
  });

  it('is frozen: callers cannot change prices in memory', () => {
    expect(Object.isFrozen(catalog.entries)).toBe(true);
    expect(Object.isFrozen(catalog.entries[0])).toBe(true);
    expect(Object.isFrozen(catalog.filter({ provider: 'aws' }))).toBe(true);
    expect(() => {
      (catalog.entries[0] as { priceUsd: number }).priceUsd = 0;
    }).toThrow(TypeError);
  });
});

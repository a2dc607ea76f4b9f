import { readFileSync } from 'node:fs';
import {
  CATALOG_SIZE,
  CATEGORIES,
  ENTRIES_PER_PROVIDER_CATEGORY,
  formulaKindOf,
  PRICE_UNITS,
  PROVIDERS,
  type Catalog,
} from '../../../src/domain/cost-estimator';
import { compareCatalogOrder } from '../../../src/domain/cost-estimator/catalog';
import { CATALOG_FILE_PATH, loadCatalogFile } from '../../../src/infra/load-catalog-file';

/** The shipped data file keeps every catalog rule of CONTRACT §5. */
describe('data/catalog.json', () => {
  let catalog: Catalog;
  beforeAll(async () => {
    catalog = await loadCatalogFile();
  });

  it('loads from the repository data file', () => {
    expect(CATALOG_FILE_PATH.endsWith('data/catalog.json')).toBe(true);
    expect(catalog.entries.length).toBeGreaterThan(0);
  });

  it('holds exactly 216 entries', () => {
    expect(CATALOG_SIZE).toBe(216);
    expect(catalog.entries).toHaveLength(216);
  });

  it('holds exactly 6 entries for every (provider, category) pair', () => {
    for (const provider of PROVIDERS) {
      for (const category of CATEGORIES) {
        expect({ provider, category, count: catalog.filter({ provider, category }).length }).toEqual({
          provider,
          category,
          count: ENTRIES_PER_PROVIDER_CATEGORY,
        });
      }
    }
  });

  it('uses only the priceUnit forms of the spec', () => {
    const unknown = catalog.entries.filter((e) => !PRICE_UNITS.includes(e.priceUnit) || formulaKindOf(e.priceUnit) === undefined);
    expect(unknown).toEqual([]);
  });

  it('has a positive, finite price on every entry', () => {
    const bad = catalog.entries.filter((e) => !(Number.isFinite(e.priceUsd) && e.priceUsd > 0));
    expect(bad).toEqual([]);
  });

  it('has a unique (provider, service, instance) on every entry', () => {
    const keys = catalog.entries.map((e) => JSON.stringify([e.provider, e.service, e.instance]));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is sorted in catalog order: provider, category, service, instance', () => {
    const sorted = [...catalog.entries].sort(compareCatalogOrder);
    expect(catalog.entries).toEqual(sorted);
    expect(catalog.entries[0]?.provider).toBe('aws');
    expect(catalog.entries[0]?.category).toBe('compute');
    expect(catalog.entries.at(-1)?.provider).toBe('azure');
    expect(catalog.entries.at(-1)?.category).toBe('ai_ml');
  });

  it('prices each provider in its one named region', () => {
    expect(catalog.regions).toEqual({ aws: 'us-east-1', gcp: 'us-central1', azure: 'eastus' });
    const elsewhere = catalog.entries.filter((e) => e.region !== catalog.regions[e.provider]);
    expect(elsewhere).toEqual([]);
  });

  it('records a version and the date its prices were taken', () => {
    expect(catalog.version).toMatch(/\S/);
    expect(catalog.pricedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('writes every price as a plain decimal literal, so its exact digits are in the file', () => {
    const text = readFileSync(CATALOG_FILE_PATH, 'utf8');
    const literals = [...text.matchAll(/"priceUsd": ([^,\n]+)/g)].map((m) => m[1]);
    expect(literals).toHaveLength(216);
    for (const literal of literals) expect(literal).toMatch(/^\d+\.\d+$|^\d+$/);
  });

  it('has a non-empty service, instance and specs on every entry', () => {
    const blank = catalog.entries.filter((e) => !e.service.trim() || !e.instance.trim() || !e.specs.trim());
    expect(blank).toEqual([]);
  });
});

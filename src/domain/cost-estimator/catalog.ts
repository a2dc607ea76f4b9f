import { CATEGORIES, PROVIDERS, type Category, type Provider } from './constants';
import { catalogFileSchema, type CatalogEntry } from './catalog-file-schema';
import { catalogInvariantViolations } from './catalog-invariants';

export type { CatalogEntry } from './catalog-file-schema';

export interface CatalogFilter {
  provider?: Provider;
  category?: Category;
}

/** Thrown at start-up when data/catalog.json breaks its schema or invariants: a bug in the data, not a request error. */
export class InvalidCatalogError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid cost catalog:\n- ${problems.join('\n- ')}`);
    this.name = 'InvalidCatalogError';
  }
}

/** The priced catalog in memory: validated once, frozen, indexed so every filter and lookup is a map access. */
export class Catalog {
  /** All entries in catalog order. */
  readonly entries: readonly CatalogEntry[];
  private readonly filtered = new Map<string, readonly CatalogEntry[]>();
  /** provider → service → that service's entries in catalog order. */
  private readonly services = new Map<Provider, Map<string, readonly CatalogEntry[]>>();

  private constructor(
    readonly version: string,
    readonly pricedAt: string,
    readonly regions: Readonly<Record<Provider, string>>,
    entries: readonly CatalogEntry[],
  ) {
    this.entries = Object.freeze(entries.map((e) => Object.freeze({ ...e })));

    // Every (provider?, category?) combination precomputed: 4 × 13 small arrays sharing the frozen entries.
    for (const provider of [undefined, ...PROVIDERS]) {
      for (const category of [undefined, ...CATEGORIES]) {
        const subset = this.entries.filter(
          (e) => (provider === undefined || e.provider === provider) && (category === undefined || e.category === category),
        );
        this.filtered.set(filterKey({ provider, category }), Object.freeze(subset));
      }
    }

    for (const e of this.entries) {
      let byService = this.services.get(e.provider);
      if (!byService) this.services.set(e.provider, (byService = new Map()));
      byService.set(e.service, Object.freeze([...(byService.get(e.service) ?? []), e]));
    }
  }

  static parse(raw: unknown): Catalog {
    const result = catalogFileSchema.safeParse(raw);
    if (!result.success) {
      throw new InvalidCatalogError(result.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`));
    }
    const problems = catalogInvariantViolations(result.data);
    if (problems.length > 0) throw new InvalidCatalogError(problems);
    const { version, priced_at, regions, entries } = result.data;
    return new Catalog(version, priced_at, Object.freeze({ ...regions }), entries);
  }

  /** Entries matching both filters (either may be absent), in catalog order. */
  filter(filter: CatalogFilter = {}): readonly CatalogEntry[] {
    return this.filtered.get(filterKey(filter)) ?? [];
  }

  instancesOf(provider: Provider, service: string): readonly CatalogEntry[] {
    return this.services.get(provider)?.get(service) ?? [];
  }

  find(provider: Provider, service: string, instance: string): CatalogEntry | undefined {
    return this.instancesOf(provider, service).find((e) => e.instance === instance);
  }
}

function filterKey(filter: CatalogFilter): string {
  return `${filter.provider ?? '*'}/${filter.category ?? '*'}`;
}

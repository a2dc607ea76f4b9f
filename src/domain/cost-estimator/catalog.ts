import { z } from 'zod';
import { ValidationError, type ErrorDetail } from '../errors';
import { CATALOG_SIZE, CATEGORIES, ENTRIES_PER_PROVIDER_CATEGORY, formulaKindOf, PRICE_UNITS, PROVIDERS, type Provider } from './constants';

/** data/catalog.json, strict: a misspelt field fails start-up. Cross-entry rules: catalogInvariantViolations. */

const catalogEntrySchema = z.strictObject({
  provider: z.enum(PROVIDERS),
  category: z.enum(CATEGORIES),
  service: z.string().min(1),
  instance: z.string().min(1),
  specs: z.string().min(1),
  priceUnit: z.string().refine((unit) => formulaKindOf(unit) !== undefined, {
    error: `must be one of: ${PRICE_UNITS.join(', ')}`,
  }),
  // Finite and > 0 (zod 4 numbers reject Infinity and NaN).
  priceUsd: z.number().positive(),
  region: z.string().min(1),
});

const catalogFileSchema = z.strictObject({
  /** Bumped whenever prices or entries change, so loaders can tell an updated file apart. */
  version: z.string().min(1),
  priced_at: z.iso.date(),
  /** The one region per provider whose list prices the catalog holds. */
  regions: z.strictObject({ aws: z.string().min(1), gcp: z.string().min(1), azure: z.string().min(1) }),
  entries: z.array(catalogEntrySchema),
});

export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

/** Every rule a schema-valid catalog breaks (CONTRACT §5), as sentences: one load reports every mistake. */
function catalogInvariantViolations(file: z.infer<typeof catalogFileSchema>): string[] {
  const problems: string[] = [];
  const { entries } = file;

  if (entries.length !== CATALOG_SIZE) {
    problems.push(`the catalog has ${entries.length} entries; it must have exactly ${CATALOG_SIZE}`);
  }

  const perPair = new Map<string, number>();
  for (const e of entries) perPair.set(`${e.provider}/${e.category}`, (perPair.get(`${e.provider}/${e.category}`) ?? 0) + 1);
  for (const provider of PROVIDERS) {
    for (const category of CATEGORIES) {
      const count = perPair.get(`${provider}/${category}`) ?? 0;
      if (count !== ENTRIES_PER_PROVIDER_CATEGORY) {
        problems.push(`${provider}/${category} has ${count} entries; it must have exactly ${ENTRIES_PER_PROVIDER_CATEGORY}`);
      }
    }
  }

  const seen = new Set<string>();
  entries.forEach((e, i) => {
    const where = `entries[${i}] (${e.provider} / ${e.service} / ${e.instance})`;
    // One unambiguous string per (provider, service, instance), whatever characters the names hold.
    const key = JSON.stringify([e.provider, e.service, e.instance]);
    if (seen.has(key)) problems.push(`${where} repeats an earlier (provider, service, instance)`);
    seen.add(key);
    if (e.region !== file.regions[e.provider]) {
      problems.push(`${where} is priced in ${e.region}, but the catalog's ${e.provider} region is ${file.regions[e.provider]}`);
    }
    const previous = entries[i - 1];
    if (previous !== undefined && compareCatalogOrder(previous, e) > 0) {
      problems.push(`${where} is out of catalog order (provider, category, service, instance)`);
    }
  });

  return problems;
}

/** Provider, category (spec order), service, instance; by code unit, not locale: alike on every machine. */
export function compareCatalogOrder(a: CatalogEntry, b: CatalogEntry): number {
  return (
    PROVIDERS.indexOf(a.provider) - PROVIDERS.indexOf(b.provider) ||
    CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category) ||
    compareCodeUnits(a.service, b.service) ||
    compareCodeUnits(a.instance, b.instance)
  );
}

function compareCodeUnits(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Thrown at start-up when data/catalog.json breaks its schema or invariants: a bug in the data, not a request error. */
export class InvalidCatalogError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid cost catalog:\n- ${problems.join('\n- ')}`);
    this.name = 'InvalidCatalogError';
  }
}

/** The priced catalog in memory: validated once, frozen, its services indexed for lookups. */
export class Catalog {
  /** All entries in catalog order. */
  readonly entries: readonly CatalogEntry[];
  /** provider → service → that service's entries in catalog order. */
  private readonly services = new Map<Provider, Map<string, readonly CatalogEntry[]>>();

  private constructor(
    readonly version: string,
    readonly pricedAt: string,
    readonly regions: Readonly<Record<Provider, string>>,
    entries: readonly CatalogEntry[],
  ) {
    this.entries = Object.freeze(entries.map((e) => Object.freeze({ ...e })));

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
  filter({ provider, category }: CatalogFilter = {}): readonly CatalogEntry[] {
    return Object.freeze(
      this.entries.filter((e) => (provider === undefined || e.provider === provider) && (category === undefined || e.category === category)),
    );
  }

  instancesOf(provider: Provider, service: string): readonly CatalogEntry[] {
    return this.services.get(provider)?.get(service) ?? [];
  }

  find(provider: Provider, service: string, instance: string): CatalogEntry | undefined {
    return this.instancesOf(provider, service).find((e) => e.instance === instance);
  }
}

/** GET /api/cost-estimator's query. Other parameters are ignored: caches and browsers add their own. */
const catalogQuerySchema = z.object({
  provider: z.enum(PROVIDERS).optional(),
  category: z.enum(CATEGORIES).optional(),
});
export type CatalogFilter = z.infer<typeof catalogQuerySchema>;

const ALLOWED = { provider: PROVIDERS, category: CATEGORIES } as const;

/** Koa's ctx.query; an unknown or repeated value is a 400 with the first bad parameter's `allowed` values, its details' paths `query.<name>` as every route's. */
export function parseCatalogQuery(query: Readonly<Record<string, unknown>>): CatalogFilter {
  const parsed = catalogQuerySchema.safeParse(query);
  if (parsed.success) return parsed.data;
  const bad = parsed.error.issues.map((issue) => issue.path[0] as keyof typeof ALLOWED);
  const details: ErrorDetail[] = bad.map((name) => ({
    path: `query.${name}`,
    message: Array.isArray(query[name])
      ? `must be given once, as one of: ${ALLOWED[name].join(', ')}`
      : `must be one of: ${ALLOWED[name].join(', ')}`,
  }));
  const firstBad = bad[0] as keyof typeof ALLOWED;
  const value = query[firstBad];
  const shown = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
  throw new ValidationError(
    `Unknown ${firstBad} ${shown}. Allowed values: ${ALLOWED[firstBad].join(', ')}.`,
    details,
    'invalid_request',
    { allowed: [...ALLOWED[firstBad]] },
  );
}

/** Providers in the spec's order; this order is also the catalog order. */
export const PROVIDERS = ['aws', 'gcp', 'azure'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** Categories in the spec's order; the catalog is sorted by this order within a provider. */
export const CATEGORIES = [
  'compute',
  'storage',
  'database',
  'networking',
  'containers',
  'serverless',
  'monitoring',
  'messaging',
  'cdn',
  'security',
  'cache',
  'ai_ml',
] as const;

/** CONTRACT §5: exactly 6 priced configurations per (provider, category), 216 in all. */
export const ENTRIES_PER_PROVIDER_CATEGORY = 6;
export const CATALOG_SIZE = PROVIDERS.length * CATEGORIES.length * ENTRIES_PER_PROVIDER_CATEGORY;

/** Hours used for hourly prices when an item gives no hoursPerMonth (365 × 24 / 12 ≈ 730). */
export const DEFAULT_HOURS_PER_MONTH = 730;
/** The longest month: 31 × 24. */
export const MAX_HOURS_PER_MONTH = 744;

export const MIN_ITEMS = 1;
export const MAX_ITEMS = 100;

/** Largest annual amount reported: its cents are exact in JSON (below 2^46); more is a 422, not rounded. */
export const MAX_ANNUAL_ESTIMATE_USD = 10_000_000_000_000;

/** The spec's priceUnit forms and each one's line formula; another unit is a catalog error, never guessed. */

export type FormulaKind =
  /** quantity × price × hoursPerMonth */
  | 'hourly'
  /** quantity × price × gbPerMonth (gbPerMonth required) */
  | 'per_gb'
  /** quantity × price: the price already covers a month */
  | 'flat_monthly'
  /** quantity × price: quantity counts the priced blocks (3 at "per million requests" = 3 million requests) */
  | 'per_unit_block';

/** The <things> of "per million <things>". */
export const PER_MILLION_THINGS = [
  'reads',
  'writes',
  'invocations',
  'calls',
  'requests',
  'publishes',
  'deliveries',
  'events',
  'traces',
  'tokens',
  'spans',
  'operations',
  'tasks',
  'RUs',
] as const;

const UNIT_KINDS: ReadonlyMap<string, FormulaKind> = new Map<string, FormulaKind>([
  ['per hour', 'hourly'],
  ['per vCPU-hour', 'hourly'],
  ['per GB-hour', 'hourly'],
  ['per GB/month', 'per_gb'],
  ['per GB', 'per_gb'],
  ['per month', 'flat_monthly'],
  ['per metric/month', 'flat_monthly'],
  ['per alarm/month', 'flat_monthly'],
  ['per secret/month', 'flat_monthly'],
  ['per key/month', 'flat_monthly'],
  ['per policy/month', 'flat_monthly'],
  ['per server/month', 'flat_monthly'],
  // A GB-second is a usage block like a request: the quantity is the number of GB-seconds.
  ['per GB-second', 'per_unit_block'],
  ...PER_MILLION_THINGS.map((thing): [string, FormulaKind] => [`per million ${thing}`, 'per_unit_block']),
  ['per 10K requests', 'per_unit_block'],
  ['per 10K operations', 'per_unit_block'],
  ['per 100K reads', 'per_unit_block'],
  ['per 100K writes', 'per_unit_block'],
  ['per 1K transactions', 'per_unit_block'],
]);

/** Every allowed priceUnit string, exactly as written in the spec. */
export const PRICE_UNITS: readonly string[] = Object.freeze([...UNIT_KINDS.keys()]);

/** The formula kind of an allowed priceUnit; undefined for anything else (exact match only). */
export function formulaKindOf(unit: string): FormulaKind | undefined {
  return UNIT_KINDS.get(unit);
}

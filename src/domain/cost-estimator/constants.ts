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
export type Category = (typeof CATEGORIES)[number];

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

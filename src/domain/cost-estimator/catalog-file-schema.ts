import { z } from 'zod';
import { CATEGORIES, PROVIDERS } from './constants';
import { formulaKindOf, PRICE_UNITS } from './price-units';

/** data/catalog.json, strict: a misspelt field fails start-up. Cross-entry rules: catalog-invariants.ts. */

export const catalogEntrySchema = z.strictObject({
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

export const catalogFileSchema = z.strictObject({
  /** Bumped whenever prices or entries change, so loaders can tell an updated file apart. */
  version: z.string().min(1),
  priced_at: z.iso.date(),
  /** The one region per provider whose list prices the catalog holds. */
  regions: z.strictObject({ aws: z.string().min(1), gcp: z.string().min(1), azure: z.string().min(1) }),
  entries: z.array(catalogEntrySchema),
});

export type CatalogEntry = z.infer<typeof catalogEntrySchema>;
export type CatalogFile = z.infer<typeof catalogFileSchema>;

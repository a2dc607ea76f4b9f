import { z } from 'zod';
import { ValidationError, type ErrorDetail } from '../errors';
import { CATEGORIES, PROVIDERS } from './constants';
import type { CatalogFilter } from './catalog';

/** GET /api/cost-estimator's query. Other parameters are ignored: caches and browsers add their own. */
export const catalogQuerySchema = z.object({
  provider: z.enum(PROVIDERS).optional(),
  category: z.enum(CATEGORIES).optional(),
});

const ALLOWED = { provider: PROVIDERS, category: CATEGORIES } as const;

/** Koa's ctx.query; an unknown or repeated value is a 400 with the first bad parameter's `allowed` values. */
export function parseCatalogQuery(query: Readonly<Record<string, unknown>>): CatalogFilter {
  const details: ErrorDetail[] = [];
  let firstBad: keyof typeof ALLOWED | undefined;
  for (const name of ['provider', 'category'] as const) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !(ALLOWED[name] as readonly string[]).includes(value)) {
      firstBad ??= name;
      details.push({
        path: name,
        message: Array.isArray(value)
          ? `must be given once, as one of: ${ALLOWED[name].join(', ')}`
          : `must be one of: ${ALLOWED[name].join(', ')}`,
      });
    }
  }
  if (firstBad !== undefined) {
    const value = query[firstBad];
    const shown = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
    throw new ValidationError(
      `Unknown ${firstBad} ${shown}. Allowed values: ${ALLOWED[firstBad].join(', ')}.`,
      details,
      'invalid_request',
      { allowed: [...ALLOWED[firstBad]] },
    );
  }
  // The checks above accept exactly what the schema accepts; parse() only narrows the types.
  // Only the given filters are passed, so an absent one is absent, not `undefined`.
  const given = Object.fromEntries(Object.keys(ALLOWED).filter((k) => query[k] !== undefined).map((k) => [k, query[k]]));
  return catalogQuerySchema.parse(given);
}

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
  const parsed = catalogQuerySchema.safeParse(query);
  if (parsed.success) return parsed.data;
  const bad = parsed.error.issues.map((issue) => issue.path[0] as keyof typeof ALLOWED);
  const details: ErrorDetail[] = bad.map((name) => ({
    path: name,
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

import { z } from 'zod';
import {
  CATEGORIES,
  DEFAULT_HOURS_PER_MONTH,
  estimateRequestSchema,
  MAX_ITEMS,
  PRICE_UNITS,
  PROVIDERS,
  type EstimateRequest,
} from '../../../domain/cost-estimator';
import { ErrorBody } from '../responses';

/** Documented here; parseCatalogQuery validates, as its 400 carries `allowed` (a zod schema's would not). */
const filter = (values: readonly string[], description: string, example: string) =>
  z.unknown().meta({ type: 'string', enum: [...values], description, example }).optional();
export const CatalogQuery = z.object({
  provider: filter(PROVIDERS, 'Only this provider.', 'aws'),
  category: filter(CATEGORIES, 'Only this category (combinable with provider).', 'compute'),
});

/** Named components (`.meta({ id })`), so that generated clients name these types. */
const Provider = z.enum(PROVIDERS).meta({ id: 'Provider' });

const CatalogEntryBody = z.object({
  provider: Provider,
  category: z.enum(CATEGORIES).meta({ id: 'Category' }),
  service: z.string(),
  instance: z.string().describe('Instance type or tier name.'),
  specs: z.string(),
  priceUnit: z.enum(PRICE_UNITS as [string, ...string[]]).meta({ id: 'PriceUnit' }),
  priceUsd: z.number().describe('List price in USD per priceUnit.'),
  region: z.string(),
}).meta({ id: 'CatalogEntry' });

export const CatalogBody = z.object({
  count: z.number().int().describe('Number of entries returned.'),
  services: z.array(CatalogEntryBody).describe('Catalog order: provider, category, service, instance.'),
}).meta({ id: 'Catalog' });

export const EXAMPLE_ESTIMATE_REQUEST: EstimateRequest = {
  items: [
    { provider: 'aws', service: 'Amazon EC2', instance: 'm5.large', quantity: 2, hoursPerMonth: DEFAULT_HOURS_PER_MONTH },
    { provider: 'aws', service: 'Amazon S3', instance: 'Standard', quantity: 1, gbPerMonth: 500 },
    { provider: 'aws', service: 'AWS Lambda', instance: 'Requests', quantity: 3 },
  ],
};

/** Not a named component: its example stays on the operation's body schema (a $ref would carry none). */
export const EstimateRequestBody = estimateRequestSchema.meta({
  description: `1 to ${MAX_ITEMS} items. Unknown fields are rejected (400) so a misspelt usage field never prices silently at its default.`,
  example: EXAMPLE_ESTIMATE_REQUEST,
});

const BreakdownLineBody = z.object({
  provider: Provider,
  service: z.string(),
  instance: z.string().describe("The matched catalog instance (the service's only one when the item named none)."),
  quantity: z.number(),
  unitPrice: z.number(),
  priceUnit: z.string(),
  monthlyUsd: z.number().describe('Line cost, exact decimal arithmetic rounded half-up to cents.'),
}).meta({ id: 'EstimateLine' });

export const EstimateBody = z.object({
  totalMonthlyUsd: z.number().describe('Unrounded sum of the lines, rounded half-up to cents.'),
  totalAnnualUsd: z.number().describe('12 × totalMonthlyUsd.'),
  breakdown: z.array(BreakdownLineBody).describe('One line per item, in request order.'),
  generatedAt: z.string().describe('ISO 8601 UTC with milliseconds.'),
}).meta({ id: 'Estimate' });

export const EstimatorErrorBody = ErrorBody.extend({
  allowed: z.array(z.string()).optional().describe('400 on GET: the allowed values of the bad filter.'),
  index: z.number().int().optional().describe('422: index of the item that cannot be priced.'),
  instances: z.array(z.string()).optional().describe("422: the service's instances to choose from."),
}).meta({ id: 'EstimatorError' });

import { z } from 'zod';
import { MAX_HOURS_PER_MONTH, MAX_ITEMS, MIN_ITEMS, PROVIDERS } from './constants';

/** POST /api/cost-estimator's body; strict, so a misspelt "hoursPerMonht" cannot fall back to 730 hours. */

/** "is required" for a missing field, `otherwise` for a value of the wrong type. */
const requiredOr = (otherwise: string) => (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : otherwise);

const hoursRange = `must be between 0 and ${MAX_HOURS_PER_MONTH}`;

export const estimateItemSchema = z.strictObject({
  provider: z.enum(PROVIDERS, { error: requiredOr(`must be one of: ${PROVIDERS.join(', ')}`) }),
  service: z.string({ error: requiredOr('must be a string') }).min(1, { error: 'must not be empty' }),
  instance: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional(),
  quantity: z.number({ error: requiredOr('must be a number') }).positive({ error: 'must be greater than 0' }),
  hoursPerMonth: z.number({ error: 'must be a number' }).min(0, { error: hoursRange }).max(MAX_HOURS_PER_MONTH, { error: hoursRange }).optional(),
  gbPerMonth: z.number({ error: 'must be a number' }).min(0, { error: 'must be 0 or more' }).optional(),
});

export const estimateRequestSchema = z.strictObject({
  items: z
    .array(estimateItemSchema, { error: requiredOr('must be an array of items') })
    .min(MIN_ITEMS, { error: `must contain at least ${MIN_ITEMS} item` })
    .max(MAX_ITEMS, { error: `must contain at most ${MAX_ITEMS} items` }),
});

export type EstimateItem = z.infer<typeof estimateItemSchema>;
export type EstimateRequest = z.infer<typeof estimateRequestSchema>;

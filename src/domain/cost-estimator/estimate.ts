import Decimal from 'decimal.js';
import { z } from 'zod';
import { type Clock, systemClock } from '../clock';
import { DomainError, ValidationError } from '../errors';
import { ExactNumber } from '../webhooks/exact-json';
import type { Catalog, CatalogEntry } from './catalog';
import { DEFAULT_HOURS_PER_MONTH, formulaKindOf, MAX_ANNUAL_ESTIMATE_USD, MAX_HOURS_PER_MONTH, MAX_ITEMS, MIN_ITEMS, PROVIDERS, type Provider } from './constants';

/** POST /api/cost-estimator's body; strict, so a misspelt "hoursPerMonht" cannot fall back to 730 hours. */

/** "is required" for a missing field, `otherwise` for a value of the wrong type. */
const requiredOr = (otherwise: string) => (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : otherwise);

const hoursRange = `must be between 0 and ${MAX_HOURS_PER_MONTH}`;

const estimateItemSchema = z.strictObject({
  provider: z.enum(PROVIDERS, { error: requiredOr(`must be one of: ${PROVIDERS.join(', ')}`) }),
  service: z.string({ error: requiredOr('must be a string') }).min(1, { error: 'must not be empty' }),
  instance: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional(),
  quantity: z.number({ error: requiredOr('must be a number') }).positive({ error: 'must be greater than 0' }),
  hoursPerMonth: z.number({ error: 'must be a number' }).min(0, { error: hoursRange }).max(MAX_HOURS_PER_MONTH, { error: hoursRange }).optional(),
  gbPerMonth: z.number({ error: 'must be a number' }).min(0, { error: 'must be 0 or more' }).optional(),
}).meta({ id: 'EstimateItem' });

export const estimateRequestSchema = z.strictObject({
  items: z
    .array(estimateItemSchema, { error: requiredOr('must be an array of items') })
    .min(MIN_ITEMS, { error: `must contain at least ${MIN_ITEMS} item` })
    .max(MAX_ITEMS, { error: `must contain at most ${MAX_ITEMS} items` }),
});

export type EstimateItem = z.infer<typeof estimateItemSchema>;

/** A number of an item as sent: an ExactNumber where a double could not hold it (exact-json.ts), which the schema checked as its nearest double. */
type Amount = number | ExactNumber;
/** An item whose numbers are as sent (the API reads them so: money is computed from the digits, never from a double). */
export type ExactEstimateItem = Omit<EstimateItem, 'quantity' | 'hoursPerMonth' | 'gbPerMonth'> & { quantity: Amount; hoursPerMonth?: Amount; gbPerMonth?: Amount };
export type EstimateRequest = z.infer<typeof estimateRequestSchema>;

export interface Estimate {
  totalMonthlyUsd: number;
  totalAnnualUsd: number;
  /** One line per item, in request order; `instance` is the matched one (the service's only one when the item named none). */
  breakdown: Array<{ provider: Provider; service: string; instance: string; quantity: Amount; unitPrice: number; priceUnit: string; monthlyUsd: number }>;
  /** ISO 8601 UTC with milliseconds. */
  generatedAt: string;
}

/**
 * Own Decimal clone, immune to other modules' settings; 60 digits keep price × quantity × usage exact.
 * A number enters by its shortest round-trip string: 0.1 is exactly 0.1 (as written in JSON), not 0.1000…0555.
 */
const Money = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

/** An amount as Money: a double by its shortest round-trip string, an ExactNumber by its digits. */
const moneyOf = (amount: Amount) => new Money(amount instanceof ExactNumber ? amount.text : amount);

/**
 * The schema's bounds, checked on the digits of a number the schema saw only as its nearest double (744.0000000000000001
 * is 744 as a double; -1e-400 is -0, which passes "at least 0").
 */
function assertExactBounds(item: ExactEstimateItem, index: number): void {
  const fields: Array<[keyof ExactEstimateItem, Amount | undefined, (d: Decimal) => boolean, string]> = [
    ['quantity', item.quantity, (d) => d.gt(0), 'must be greater than 0'],
    ['hoursPerMonth', item.hoursPerMonth, (d) => d.gte(0) && d.lte(MAX_HOURS_PER_MONTH), hoursRange],
    ['gbPerMonth', item.gbPerMonth, (d) => d.gte(0), 'must be 0 or more'],
  ];
  for (const [field, amount, holds, message] of fields) {
    if (amount instanceof ExactNumber && !holds(moneyOf(amount))) {
      throw new ValidationError(`items[${index}].${field} ${message}.`, [{ path: `items.${index}.${field}`, message }]);
    }
  }
}

/** Half-up to whole cents: 0.125 → 0.13, 0.124999 → 0.12. */
function roundToCents(amount: Decimal): Decimal {
  return amount.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** A cents-rounded amount as the JS number of its two-decimal text (for JSON output only). */
function centsToNumber(cents: Decimal): number {
  return Number(cents.toFixed(2, Decimal.ROUND_HALF_UP));
}

/** Each line rounded half-up to cents; the total is the UNROUNDED sum rounded once (no drift); annual is 12 × that monthly. */
export function estimateCost(catalog: Catalog, items: readonly ExactEstimateItem[], clock: Clock = systemClock): Estimate {
  items.forEach(assertExactBounds);
  let total = new Money(0);
  const breakdown = items.map((item, index): Estimate['breakdown'][number] => {
    const entry = matchCatalogEntry(catalog, item, index);
    const monthly = lineMonthlyCost(entry, item, index);
    assertInRange(monthly, `items[${index}] costs`, index);
    total = total.plus(monthly);
    return {
      provider: entry.provider,
      service: entry.service,
      instance: entry.instance,
      quantity: item.quantity,
      unitPrice: entry.priceUsd,
      priceUnit: entry.priceUnit,
      monthlyUsd: centsToNumber(roundToCents(monthly)),
    };
  });
  const totalMonthly = roundToCents(total);
  assertInRange(totalMonthly, 'The estimate totals');
  return {
    totalMonthlyUsd: centsToNumber(totalMonthly),
    totalAnnualUsd: centsToNumber(totalMonthly.times(12)),
    breakdown,
    generatedAt: clock().toISOString(),
  };
}

/** Refuses a monthly amount whose annual figure (12 × monthly) is over what an estimate reports exactly. */
function assertInRange(monthly: Decimal, subject: string, index?: number): void {
  if (roundToCents(monthly).times(12).lte(MAX_ANNUAL_ESTIMATE_USD)) return;
  throw new DomainError(
    'estimate_out_of_range',
    `${subject} more than the largest amount an estimate reports ($${MAX_ANNUAL_ESTIMATE_USD.toLocaleString('en-US')} a year); lower quantity, hoursPerMonth or gbPerMonth.`,
    index === undefined ? {} : { index },
  );
}

/** Exact (provider, service, instance), or with no instance the service's only one; else a 422 with index. */
function matchCatalogEntry(catalog: Catalog, item: ExactEstimateItem, index: number): CatalogEntry {
  const candidates = catalog.instancesOf(item.provider, item.service);
  if (candidates.length === 0) {
    throw new DomainError(
      'unknown_service',
      `items[${index}]: no catalog entry for ${item.provider} / ${item.service}.`,
      { index },
    );
  }
  const instances = candidates.map((e) => e.instance);

  if (item.instance === undefined) {
    if (candidates.length === 1) return candidates[0] as CatalogEntry;
    throw new DomainError(
      'instance_required',
      `items[${index}]: ${item.provider} / ${item.service} has ${candidates.length} instances; choose one with "instance".`,
      { index, instances },
    );
  }

  const entry = candidates.find((e) => e.instance === item.instance);
  if (!entry) {
    throw new DomainError(
      'unknown_instance',
      `items[${index}]: no catalog entry for ${item.provider} / ${item.service} / ${item.instance}.`,
      { index, instances },
    );
  }
  return entry;
}

/** Unrounded monthly cost of one item (CONTRACT §5); usage fields the entry's unit does not use are ignored. */
function lineMonthlyCost(entry: CatalogEntry, item: ExactEstimateItem, index: number): Decimal {
  const priced = moneyOf(item.quantity).times(new Money(entry.priceUsd));
  const kind = formulaKindOf(entry.priceUnit);
  switch (kind) {
    case 'hourly':
      return priced.times(moneyOf(item.hoursPerMonth ?? DEFAULT_HOURS_PER_MONTH));
    case 'per_gb':
      if (item.gbPerMonth === undefined) {
        throw new ValidationError(
          `items[${index}].gbPerMonth is required: ${entry.service} / ${entry.instance} is priced ${entry.priceUnit}.`,
          [{ path: `items.${index}.gbPerMonth`, message: `required for items priced ${entry.priceUnit}` }],
        );
      }
      return priced.times(moneyOf(item.gbPerMonth));
    case 'flat_monthly':
    case 'per_unit_block':
      return priced;
    case undefined:
      // The catalog schema admits only known units, so this is a programming error.
      throw new Error(`Catalog entry ${entry.service} / ${entry.instance} has an unknown priceUnit "${entry.priceUnit}"`);
  }
}

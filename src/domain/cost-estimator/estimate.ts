import { type Clock, systemClock } from '../clock';
import type Decimal from 'decimal.js';
import { DomainError } from '../errors';
import type { Catalog } from './catalog';
import { MAX_ANNUAL_ESTIMATE_USD, type Provider } from './constants';
import type { EstimateItem } from './estimate-request';
import { lineMonthlyCost } from './line-cost';
import { matchCatalogEntry } from './match-catalog-entry';
import { centsToNumber, roundToCents, toDecimal } from './money';

export interface BreakdownLine {
  provider: Provider;
  service: string;
  /** The matched catalog instance (the service's only one when the item named none). */
  instance: string;
  quantity: number;
  unitPrice: number;
  priceUnit: string;
  monthlyUsd: number;
}

export interface Estimate {
  totalMonthlyUsd: number;
  totalAnnualUsd: number;
  /** One line per item, in request order. */
  breakdown: BreakdownLine[];
  /** ISO 8601 UTC with milliseconds. */
  generatedAt: string;
}

/**
 * Prices items in exact decimal: each line rounded half-up to cents; the total is the UNROUNDED sum rounded
 * once (no drift); annual is 12 × the rounded monthly, so they agree. The first unpriceable item is reported.
 */
export function estimateCost(catalog: Catalog, items: readonly EstimateItem[], clock: Clock = systemClock): Estimate {
  let total = toDecimal(0);
  const breakdown = items.map((item, index): BreakdownLine => {
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

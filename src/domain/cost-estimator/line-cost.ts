import type Decimal from 'decimal.js';
import { ValidationError } from '../errors';
import type { CatalogEntry } from './catalog';
import { DEFAULT_HOURS_PER_MONTH } from './constants';
import type { EstimateItem } from './estimate-request';
import { formulaKindOf } from './price-units';
import { toDecimal } from './money';

/** Unrounded monthly cost of one item (CONTRACT §5); usage fields the entry's unit does not use are ignored. */
export function lineMonthlyCost(entry: CatalogEntry, item: EstimateItem, index: number): Decimal {
  const priced = toDecimal(item.quantity).times(toDecimal(entry.priceUsd));
  const kind = formulaKindOf(entry.priceUnit);
  switch (kind) {
    case 'hourly':
      return priced.times(toDecimal(item.hoursPerMonth ?? DEFAULT_HOURS_PER_MONTH));
    case 'per_gb':
      if (item.gbPerMonth === undefined) {
        throw new ValidationError(
          `items[${index}].gbPerMonth is required: ${entry.service} / ${entry.instance} is priced ${entry.priceUnit}.`,
          [{ path: `items.${index}.gbPerMonth`, message: `required for items priced ${entry.priceUnit}` }],
        );
      }
      return priced.times(toDecimal(item.gbPerMonth));
    case 'flat_monthly':
    case 'per_unit_block':
      return priced;
    case undefined:
      // The catalog schema admits only known units, so this is a programming error.
      throw new Error(`Catalog entry ${entry.service} / ${entry.instance} has an unknown priceUnit "${entry.priceUnit}"`);
  }
}

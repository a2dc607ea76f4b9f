import Decimal from 'decimal.js';

/** Own Decimal clone, immune to other modules' settings; 60 digits keep price × quantity × usage exact. */
const Money = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

/** Via the number's shortest round-trip string: 0.1 is exactly 0.1 (as written in JSON), not 0.1000…0555. */
export function toDecimal(value: number): Decimal {
  return new Money(value);
}

/** Half-up to whole cents: 0.125 → 0.13, 0.124999 → 0.12. */
export function roundToCents(amount: Decimal): Decimal {
  return amount.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** A cents-rounded amount as the JS number of its two-decimal text (for JSON output only). */
export function centsToNumber(cents: Decimal): number {
  return Number(cents.toFixed(2, Decimal.ROUND_HALF_UP));
}

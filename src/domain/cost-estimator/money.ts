import Decimal from 'decimal.js';

/**
 * Exact decimal money (CONTRACT §5). A private Decimal constructor, so no other module's settings
 * change our results; 60 digits keep every price × quantity × usage exact before rounding.
 */
const Money = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

/**
 * A JS number as an exact decimal. Goes through the number's shortest round-trip string, so
 * 0.1 becomes exactly 0.1 (the value written in JSON), not 0.1000000000000000055511151231257827.
 */
export function toDecimal(value: number): Decimal {
  return new Money(value);
}

export function zero(): Decimal {
  return new Money(0);
}

/** Half-up to whole cents: 0.125 → 0.13, 0.124999 → 0.12. */
export function roundToCents(amount: Decimal): Decimal {
  return amount.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** A cents-rounded amount as the JS number of its two-decimal text (for JSON output only). */
export function centsToNumber(cents: Decimal): number {
  return Number(cents.toFixed(2, Decimal.ROUND_HALF_UP));
}

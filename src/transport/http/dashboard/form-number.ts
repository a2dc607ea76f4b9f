/** Decimal digits with an optional sign, point and exponent: Number() alone would also read `0x10`, `0b11` and `Infinity`. */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A number typed into a form field: undefined when left empty, NaN (which the schema refuses) when it is not a decimal number. */
export function formNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
}

import { randomUUID } from 'node:crypto';
import { parse } from 'lossless-json';

/**
 * Event data is delivered as it was sent. JSON.parse reads every number as a double, so it would change those a double
 * cannot hold (an int64 id such as 9007199254740993 became 9007199254740992, and 1e400 null): those are read as an
 * ExactNumber, which keeps the number's text, and stringifyExact writes that text back.
 */
export class ExactNumber {
  constructor(readonly text: string) {}

  /** The nearest double, for code that computes with it. */
  valueOf(): number {
    return Number(this.text);
  }

  /** The digits as sent, wherever the number is shown as text. */
  toString(): string {
    return this.text;
  }

  /** A stand-in that stringifyExact replaces by the text (JSON.stringify cannot write a number of its own). */
  toJSON(): string {
    return `${STAND_IN}${this.text}`;
  }
}

/** Random in each process, so that no string of anyone's data can pass for a stand-in. */
const STAND_IN = `exact-number-${randomUUID()}:`;
const STAND_INS = new RegExp(`"${STAND_IN}([-+.0-9eE]+)"`, 'g');

/**
 * A double holds every number of at most 15 significant digits within its range exactly: only a text with 16 digits in
 * a row (a dot between them or not) or a three-digit exponent may hold one it does not. Without one, JSON.parse is exact.
 */
const MAY_BE_INEXACT = /[0-9]{16}|[0-9.]{17}|[eE][+-]?[0-9]{3}/;

/** Whether JSON.parse may change a number of `text` (else parseExact is JSON.parse). */
export function mayHoldInexactNumbers(text: string): boolean {
  return MAY_BE_INEXACT.test(text);
}

/** JSON.parse, but with each number a double cannot hold exactly read as an ExactNumber. Throws a SyntaxError as JSON.parse. */
export function parseExact(text: string): unknown {
  if (!mayHoldInexactNumbers(text)) return JSON.parse(text);
  try {
    return parse(text, null, {
      parseNumber: (number) => (isHeldExactly(number) ? Number(number) : new ExactNumber(number)),
      // An object that gives a key twice keeps the last value, as JSON.parse does (lossless-json would refuse it).
      onDuplicateKey: ({ newValue }) => newValue,
    });
  } catch {
    // Not JSON: JSON.parse throws its own SyntaxError.
    return JSON.parse(text);
  }
}

/** Whether the double nearest a JSON number's text is that number (as JavaScript writes it, it may read differently: 1e+21). */
function isHeldExactly(number: string): boolean {
  const double = Number(number);
  return Number.isFinite(double) && decimalValue(String(double)) === decimalValue(number);
}

/** A JSON number's value as sign, significant digits and exponent: `-12.50` and `-1.25e1` are both `-125e-1`. */
function decimalValue(number: string): string {
  const [, sign, whole, fraction = '', exponent = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(number) ?? [];
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  const significant = digits.replace(/0+$/, '');
  if (significant === '') return '0';
  return `${sign}${significant}e${Number(exponent) - fraction.length + (digits.length - significant.length)}`;
}

/** JSON.stringify, with each ExactNumber written as its text. */
export function stringifyExact(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space);
  return text !== undefined && text.includes(STAND_IN) ? text.replace(STAND_INS, '$1') : text;
}

/** The value with each ExactNumber as its nearest double (what a schema check reads); the same value when it has none. */
export function withNearestDoubles(value: unknown): unknown {
  if (value instanceof ExactNumber) return value.valueOf();
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = value.map(withNearestDoubles);
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  const entries = Object.entries(value).map(([key, item]) => [key, withNearestDoubles(item)] as const);
  // fromEntries defines keys as JSON.parse does: a "__proto__" key stays a key.
  return entries.some(([key, item]) => item !== (value as Record<string, unknown>)[key]) ? Object.fromEntries(entries) : value;
}

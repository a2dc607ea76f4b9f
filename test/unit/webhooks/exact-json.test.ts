import fc from 'fast-check';
import { ExactNumber, parseExact, stringifyExact, withNearestDoubles } from '../../../src/domain/webhooks/exact-json';

describe("an event's data, read and written with its numbers as sent", () => {
  it.each([
    ['an int64 beyond 2^53', '9007199254740993'],
    ['30 digits', '-123456789012345678901234567890'],
    ['an exponent beyond the range of a double', '1e400'],
    ['an exponent below it', '1e-400'],
    ['more decimals than a double holds', '0.1000000000000000055511151231257827'],
  ])('keeps %s', (_what, number) => {
    const text = `{"n":${number},"list":[${number},{"deep":${number}}]}`;
    expect(stringifyExact(parseExact(text))).toBe(text);
  });

  it('reads the numbers a double holds as numbers, as JSON.parse does', () => {
    const text = '{"a":12.5,"b":-3,"c":123456789012345,"d":1e21,"e":0.1,"f":1.50e300,"g":-0.0,"h":9007199254740992,"s":"12345678901234567890"}';
    expect(parseExact(text)).toEqual(JSON.parse(text));
  });

  it('reads a key given twice as JSON.parse does, whatever its digits', () => {
    expect(parseExact('{"a":9007199254740993,"a":2}')).toEqual({ a: 2 });
  });

  it('keeps every number as sent in a body that gives a key twice, the last value in the first place, as JSON.parse', () => {
    const text = '{"type":"x","a":1,"n":9007199254740993,"tags":{"t":1,"t":2},"a":9007199254740995,"type":"y"}';
    expect(stringifyExact(parseExact(text))).toBe('{"type":"y","a":9007199254740995,"n":9007199254740993,"tags":{"t":2}}');
    expect(Object.keys(parseExact(text) as object)).toEqual(Object.keys(JSON.parse(text)));
  });

  it('keeps a "__proto__" key a key', () => {
    const value = parseExact('{"__proto__":{"n":9007199254740993}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(stringifyExact(withNearestDoubles(value))).toBe('{"__proto__":{"n":9007199254740992}}');
  });

  it('refuses what is not JSON with a SyntaxError, as JSON.parse does', () => {
    expect(() => parseExact('{"n":12345678901234567')).toThrow(SyntaxError);
  });

  it('writes indented JSON too', () => {
    expect(stringifyExact({ n: new ExactNumber('9007199254740993') }, 2)).toBe('{\n  "n": 9007199254740993\n}');
  });

  it('gives a schema check the nearest doubles, and the same value when there is no such number', () => {
    const data = { n: 1, list: [2, { s: 'x' }] };
    expect(withNearestDoubles(data)).toBe(data);
    expect(withNearestDoubles({ n: new ExactNumber('1e400'), list: [new ExactNumber('9007199254740993')] })).toEqual({ n: Infinity, list: [9007199254740992] });
  });

  /** A JSON number's value as an integer times a power of ten, compared in BigInt arithmetic. */
  function sameValue(a: string, b: string): boolean {
    const scaled = (n: string) => {
      const [, sign, whole, fraction = '', exponent = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(n)!;
      return { digits: BigInt(`${sign}${whole}${fraction}`), exponent: Number(exponent) - fraction.length };
    };
    const [x, y] = [scaled(a), scaled(b)];
    const base = Math.min(x.exponent, y.exponent);
    return x.digits * 10n ** BigInt(x.exponent - base) === y.digits * 10n ** BigInt(y.exponent - base);
  }

  it('writes back every number with the value it was sent with', () => {
    const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const number = fc
      .tuple(fc.constantFrom('', '-'), fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 24)).map(([d, ds]) => d + ds)), fc.option(digits(1, 24)), fc.option(fc.integer({ min: -400, max: 400 })))
      .map(([sign, whole, fraction, exponent]) => `${sign}${whole}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `e${exponent}`}`);
    fc.assert(
      // Read alone, or beside a string of digits that makes every number of the text be read the slow way.
      fc.property(number, fc.constantFrom('', '0000000000000000'), (n, pad) => {
        const back = /^\{"n":([^,]*),/.exec(stringifyExact(parseExact(`{"n":${n},"pad":"${pad}"}`)))![1];
        expect(sameValue(back, n)).toBe(true);
      }),
      { numRuns: 2_000, seed: 20261130 },
    );
  });
});

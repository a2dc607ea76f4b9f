import { isEventId, parseEventId } from '../../../src/domain/webhooks/event-id';

describe('event ids (CONTRACT §4: positive integers a JSON number carries exactly)', () => {
  it('reads a positive integer written without leading zeros, up to 2^53 - 1', () => {
    expect(parseEventId('1')).toBe(1);
    expect(parseEventId(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses zero, signs, leading zeros, exponents, fractions and ids past 2^53 - 1', () => {
    for (const raw of ['0', '-1', '+1', '01', '1e3', '1.0', '', ' 1', '9007199254740992', '9999999999999999', '12345678901234567']) {
      expect(parseEventId(raw)).toBeNull();
    }
  });

  it('holds numbers to the same rule', () => {
    expect(isEventId(1)).toBe(true);
    expect([0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, NaN, '1'].some((v) => isEventId(v))).toBe(false);
  });
});

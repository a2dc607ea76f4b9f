import { EVENT_ID_PATTERN, isEventId, parseEventId } from '../../../src/domain/webhooks/event-id';

describe('event ids (CONTRACT §4: positive integers a JSON number carries exactly)', () => {
  it('reads a positive integer written without leading zeros, up to 2^53 - 1', () => {
    expect(parseEventId('1')).toBe(1);
    expect(parseEventId(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses zero, signs, leading zeros, exponents and fractions', () => {
    for (const raw of ['0', '-1', '+1', '01', '1e3', '1.0', '', ' 1', '1 ', '0x10']) {
      expect(parseEventId(raw)).toBeNull();
      expect(new RegExp(EVENT_ID_PATTERN).test(raw)).toBe(false);
    }
  });

  it('tells a positive integer past 2^53 - 1, which no event has, from one that is malformed; the pattern takes it', () => {
    for (const raw of ['9007199254740992', '9999999999999999', '12345678901234567', '1'.repeat(400)]) {
      expect(parseEventId(raw)).toBe('beyond_ids');
      expect(new RegExp(EVENT_ID_PATTERN).test(raw)).toBe(true);
    }
  });

  it('holds numbers to the same rule', () => {
    expect(isEventId(1)).toBe(true);
    expect([0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, NaN, '1'].some((v) => isEventId(v))).toBe(false);
  });
});

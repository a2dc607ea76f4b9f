import { limitsOf, rateWindowOf } from '../../../src/domain/webhooks/endpoint-limits';

describe('endpoint limits', () => {
  it('has none when neither limit is set (absent or null)', () => {
    expect(limitsOf({})).toBeNull();
    expect(limitsOf({ rate_limit_per_s: null, max_in_flight: null })).toBeNull();
  });

  it('has each limit that is set, the other null', () => {
    expect(limitsOf({ rate_limit_per_s: 5 })).toEqual({ ratePerSecond: 5, maxInFlight: null });
    expect(limitsOf({ max_in_flight: 2, rate_limit_per_s: null })).toEqual({ ratePerSecond: null, maxInFlight: 2 });
  });

  it('counts a start in the whole second of the epoch it falls in', () => {
    expect(rateWindowOf(7_000)).toBe(7);
    expect(rateWindowOf(7_999)).toBe(7);
    expect(rateWindowOf(8_000)).toBe(8);
  });
});

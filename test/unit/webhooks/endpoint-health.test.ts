import {
  applyHealthFact,
  countLast24h,
  EMPTY_HEALTH,
  HealthFact,
  HealthSummary,
  shouldDisableForFailures,
} from '../../../src/domain/webhooks/endpoint-health';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PERIOD = 5 * DAY;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const at = (ms: number) => new Date(T0 + ms);

let seq = 0;
const delivery = (succeeded: boolean, ms: number): HealthFact => ({ kind: 'delivery', key: `d${++seq}`, succeeded, at: at(ms) });
const enabled = (ms: number): HealthFact => ({ kind: 'enabled', key: `enabled#${ms}`, at: at(ms) });
const apply = (...facts: HealthFact[]): HealthSummary => facts.reduce(applyHealthFact, EMPTY_HEALTH);

describe('endpoint health: counts, last times and consecutive failures', () => {
  it('counts deliveries that succeeded and failed in the last 24 h', () => {
    const health = apply(delivery(true, 0), delivery(false, HOUR), delivery(true, 2 * HOUR));
    expect(countLast24h(health, at(3 * HOUR))).toEqual({ succeeded_24h: 2, failed_24h: 1 });
  });

  it('leaves out deliveries that ended before the current hour and the 23 before it', () => {
    const health = apply(delivery(true, 0), delivery(false, 30 * HOUR));
    expect(countLast24h(health, at(30 * HOUR))).toEqual({ succeeded_24h: 0, failed_24h: 1 });
  });

  it('counts a delivery of 23 full hours ago and forgets it an hour later', () => {
    const health = apply(delivery(true, 0));
    expect(countLast24h(health, at(23 * HOUR + 59 * 60_000))).toEqual({ succeeded_24h: 1, failed_24h: 0 });
    expect(countLast24h(health, at(24 * HOUR))).toEqual({ succeeded_24h: 0, failed_24h: 0 });
  });

  it('keeps only the hours of the last 24 h, so a summary stays small', () => {
    const facts = Array.from({ length: 100 }, (_, i) => delivery(true, i * HOUR));
    expect(apply(...facts).hours.length).toBeLessThanOrEqual(24);
  });

  it('remembers the last success and the last failure', () => {
    const health = apply(delivery(true, HOUR), delivery(false, 2 * HOUR), delivery(false, 3 * HOUR));
    expect(health.last_success_at).toEqual(at(HOUR));
    expect(health.last_failure_at).toEqual(at(3 * HOUR));
  });

  it('counts consecutive failed deliveries since the last success', () => {
    const health = apply(delivery(false, 0), delivery(true, HOUR), delivery(false, 2 * HOUR), delivery(false, 3 * HOUR));
    expect(health.consecutive_failures).toBe(2);
    expect(health.failing_since).toEqual(at(2 * HOUR));
  });

  it('a success ends the failing streak', () => {
    const health = apply(delivery(false, 0), delivery(false, HOUR), delivery(true, 2 * HOUR));
    expect(health).toMatchObject({ consecutive_failures: 0, failing_since: null });
  });

  it('enabling the endpoint again starts the streak afresh but keeps counts and last times', () => {
    const health = apply(delivery(false, 0), delivery(false, HOUR), enabled(2 * HOUR));
    expect(health).toMatchObject({ consecutive_failures: 0, failing_since: null, last_failure_at: at(HOUR) });
    expect(countLast24h(health, at(2 * HOUR)).failed_24h).toBe(2);
  });
});

describe('endpoint health: the auto-disable rule', () => {
  it('disables when every delivery has failed for the whole period', () => {
    const health = apply(delivery(false, 0), delivery(false, 2 * DAY), delivery(false, PERIOD));
    expect(shouldDisableForFailures(health, at(PERIOD), PERIOD)).toBe(true);
  });

  it('does not disable before the period has passed since the first failure of the streak', () => {
    const health = apply(delivery(false, 0), delivery(false, PERIOD - 1));
    expect(shouldDisableForFailures(health, at(PERIOD - 1), PERIOD)).toBe(false);
  });

  it('does not disable when a delivery succeeded within the period', () => {
    const health = apply(delivery(false, 0), delivery(true, DAY), delivery(false, 2 * DAY), delivery(false, PERIOD));
    expect(shouldDisableForFailures(health, at(PERIOD), PERIOD)).toBe(false);
  });

  it('does not disable an endpoint without failures', () => {
    expect(shouldDisableForFailures(EMPTY_HEALTH, at(PERIOD), PERIOD)).toBe(false);
    expect(shouldDisableForFailures(apply(delivery(true, 0)), at(PERIOD), PERIOD)).toBe(false);
  });

  it('gives an endpoint enabled again a whole new period', () => {
    const health = apply(delivery(false, 0), enabled(PERIOD), delivery(false, PERIOD + HOUR));
    expect(shouldDisableForFailures(health, at(PERIOD + HOUR), PERIOD)).toBe(false);
    const later = applyHealthFact(health, delivery(false, 2 * PERIOD + HOUR));
    expect(shouldDisableForFailures(later, at(2 * PERIOD + HOUR), PERIOD)).toBe(true);
  });

  it('takes the period as given (a setting)', () => {
    const health = apply(delivery(false, 0), delivery(false, 2 * HOUR));
    expect(shouldDisableForFailures(health, at(2 * HOUR), 2 * HOUR)).toBe(true);
    expect(shouldDisableForFailures(health, at(2 * HOUR), 3 * HOUR)).toBe(false);
  });
});

import { countLast24h, EMPTY_HEALTH, HealthSummary, shouldDisableForFailures } from '../../../src/domain/webhooks/endpoint-health';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PERIOD = 5 * DAY;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const at = (ms: number) => new Date(T0 + ms);

/** Deliveries counted per hour (`[hours after T0, succeeded, failed]`); how facts make a summary is tested on the store (endpoint-health-log.test.ts). */
const counted = (...hours: Array<[number, number, number]>): HealthSummary => ({
  ...EMPTY_HEALTH,
  hours: hours.map(([h, succeeded, failed]) => ({ hour: T0 + h * HOUR, succeeded, failed })),
});
/** A failing streak that began `sinceMs` after T0. */
const failing = (sinceMs: number, consecutive = 2): HealthSummary => ({ ...EMPTY_HEALTH, consecutive_failures: consecutive, failing_since: at(sinceMs) });

describe('endpoint health: the last 24 h', () => {
  it('counts deliveries that succeeded and failed in the last 24 h', () => {
    expect(countLast24h(counted([0, 1, 0], [1, 0, 1], [2, 1, 0]), at(3 * HOUR))).toEqual({ succeeded_24h: 2, failed_24h: 1 });
  });

  it('leaves out deliveries that ended before the current hour and the 23 before it', () => {
    expect(countLast24h(counted([0, 1, 0], [30, 0, 1]), at(30 * HOUR))).toEqual({ succeeded_24h: 0, failed_24h: 1 });
  });

  it('counts a delivery of 23 full hours ago and forgets it an hour later', () => {
    const health = counted([0, 1, 0]);
    expect(countLast24h(health, at(23 * HOUR + 59 * 60_000))).toEqual({ succeeded_24h: 1, failed_24h: 0 });
    expect(countLast24h(health, at(24 * HOUR))).toEqual({ succeeded_24h: 0, failed_24h: 0 });
  });

  it('leaves out hours after `now`', () => {
    expect(countLast24h(counted([0, 1, 0], [5, 1, 1]), at(HOUR))).toEqual({ succeeded_24h: 1, failed_24h: 0 });
  });
});

describe('endpoint health: the auto-disable rule', () => {
  it('disables when every delivery has failed for the whole period', () => {
    expect(shouldDisableForFailures(failing(0, 3), at(PERIOD), PERIOD)).toBe(true);
  });

  it('does not disable before the period has passed since the first failure of the streak', () => {
    expect(shouldDisableForFailures(failing(0), at(PERIOD - 1), PERIOD)).toBe(false);
  });

  it('does not disable an endpoint without failures', () => {
    expect(shouldDisableForFailures(EMPTY_HEALTH, at(PERIOD), PERIOD)).toBe(false);
    expect(shouldDisableForFailures({ ...EMPTY_HEALTH, last_success_at: at(0) }, at(PERIOD), PERIOD)).toBe(false);
  });

  it('counts the period from the first failure of the streak (a success or a re-enable starts a new one)', () => {
    expect(shouldDisableForFailures(failing(PERIOD), at(PERIOD + HOUR), PERIOD)).toBe(false);
    expect(shouldDisableForFailures(failing(PERIOD), at(2 * PERIOD), PERIOD)).toBe(true);
  });

  it('takes the period as given (a setting)', () => {
    expect(shouldDisableForFailures(failing(0), at(2 * HOUR), 2 * HOUR)).toBe(true);
    expect(shouldDisableForFailures(failing(0), at(2 * HOUR), 3 * HOUR)).toBe(false);
  });
});

import { BusyRate } from '../../../src/domain/flow-control/busy-rate';

describe('BusyRate', () => {
  it('gives no rate until the queue has been busy for the minimum time', () => {
    let now = 10_000;
    const rate = new BusyRate(5, 1_000, () => now);
    rate.setBusy(true);
    now += 100;
    rate.done();
    expect(rate.perBusySecond()).toBeUndefined();
    now += 900;
    expect(rate.perBusySecond()).toBe(1);
  });

  it('counts only the time something waited, not the idle time between bursts', () => {
    let now = 10_000;
    const rate = new BusyRate(5, 1_000, () => now);
    rate.setBusy(true);
    now += 500;
    rate.done(10);
    rate.setBusy(false);
    now += 3_000;
    rate.setBusy(true);
    now += 500;
    rate.done(10);
    expect(rate.perBusySecond()).toBe(20);
  });

  it('gives no rate while nothing was done', () => {
    let now = 10_000;
    const rate = new BusyRate(5, 1_000, () => now);
    rate.setBusy(true);
    now += 3_000;
    expect(rate.perBusySecond()).toBeUndefined();
  });

  it('forgets what is older than the window', () => {
    let now = 10_000;
    const rate = new BusyRate(5, 1_000, () => now);
    rate.setBusy(true);
    now += 1_000;
    rate.done(100);
    for (let s = 0; s < 6; s++) {
      now += 1_000;
      rate.done(2);
    }
    // Busy throughout: the last five seconds hold 2 done per second.
    expect(rate.perBusySecond()).toBeCloseTo(2, 5);
  });
});

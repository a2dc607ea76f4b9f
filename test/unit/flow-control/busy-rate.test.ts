import { BusyRate } from '../../../src/domain/flow-control/busy-rate';

describe('BusyRate', () => {
  it('gives no rate until the queue has been busy for the minimum time', () => {
    let now = 10_000;
    const rate = new BusyRate(5, 1_000, () => now);
    rate.setBusy('q', true);
    now += 100;
    rate.done('q');
    expect(rate.perBusySecond('q')).toBeUndefined();
    now += 900;
    expect(rate.perBusySecond('q')).toBe(1);
  });

  it('counts only the time something waited, not the idle time between bursts', () => {
    let now = 10_000;
    const rate = new BusyRate(5, 1_000, () => now);
    rate.setBusy('q', true);
    now += 500;
    rate.done('q', 10);
    rate.setBusy('q', false);
    now += 3_000;
    rate.setBusy('q', true);
    now += 500;
    rate.done('q', 10);
    expect(rate.perBusySecond('q')).toBe(20);
  });

  it('gives no rate while nothing was done', () => {
    let now = 10_000;
    const rate = new BusyRate(5, 1_000, () => now);
    rate.setBusy('q', true);
    now += 3_000;
    expect(rate.perBusySecond('q')).toBeUndefined();
  });

  it('forgets what is older than the window', () => {
    let now = 10_000;
    const rate = new BusyRate(5, 1_000, () => now);
    rate.setBusy('q', true);
    now += 1_000;
    rate.done('q', 100);
    for (let s = 0; s < 6; s++) {
      now += 1_000;
      rate.done('q', 2);
    }
    // Busy throughout: the last five seconds hold 2 done per second.
    expect(rate.perBusySecond('q')).toBeCloseTo(2, 5);
  });

  it('keeps each key apart: one busy does not give another a rate or busy time', () => {
    let now = 10_000;
    const rate = new BusyRate(5, 1_000, () => now);
    rate.setBusy('a', true);
    now += 2_000;
    rate.done('a', 20);
    rate.done('b', 5);
    expect(rate.perBusySecond('a')).toBe(10);
    expect(rate.perBusySecond('b')).toBeUndefined();
  });
});

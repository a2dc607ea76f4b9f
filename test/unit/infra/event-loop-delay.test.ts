import { EventLoopDelay } from '../../../src/infra/event-loop-delay';

/** Keeps the event loop busy, as CPU-bound work does. */
function block(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('EventLoopDelay', () => {
  it('reports a delay sustained over two intervals', async () => {
    const delay = new EventLoopDelay().start(200);
    try {
      for (let i = 0; i < 12; i++) {
        block(60);
        await wait(1);
      }
      expect(delay.sustainedP99Ms()).toBeGreaterThanOrEqual(40);
    } finally {
      delay.stop();
    }
  });

  it('does not take one pause for overload', () => {
    // The p99 of each interval is set by the test: how late this machine's callbacks really run is not what is tested.
    let p99Ms = 0;
    const histogram = { enable: () => true, disable: () => true, reset: () => undefined, count: 1, percentile: () => p99Ms * 1e6 };
    jest.useFakeTimers();
    const delay = new EventLoopDelay(histogram).start(100);
    try {
      p99Ms = 5;
      jest.advanceTimersByTime(100);
      p99Ms = 300; // one pause, in the last interval
      jest.advanceTimersByTime(100);
      expect(delay.sustainedP99Ms()).toBe(5);
      jest.advanceTimersByTime(100); // the same delay sustained over two intervals is reported
      expect(delay.sustainedP99Ms()).toBe(300);
    } finally {
      delay.stop();
      jest.useRealTimers();
    }
  });

  it('measures nothing before it is started (the platform starts it once it is up)', async () => {
    const delay = new EventLoopDelay();
    try {
      for (let i = 0; i < 12; i++) {
        block(60);
        await wait(1);
      }
      delay.start(200);
      expect(delay.sustainedP99Ms()).toBe(0);
    } finally {
      delay.stop();
    }
  });
});

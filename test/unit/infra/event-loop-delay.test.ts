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

  it('does not take one pause for overload', async () => {
    const delay = new EventLoopDelay().start(100);
    try {
      block(300);
      await wait(350);
      expect(delay.sustainedP99Ms()).toBeLessThan(100);
    } finally {
      delay.stop();
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

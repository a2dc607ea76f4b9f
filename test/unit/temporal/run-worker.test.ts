import { runWorker } from '../../../src/temporal/worker';

describe('runWorker', () => {
  it('reports a worker that fails while running at once, and leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failure = new Error('namespace is gone');
      const reported: unknown[] = [];
      const running = runWorker({ run: () => Promise.reject(failure) }, (err) => reported.push(err));
      await new Promise((r) => setImmediate(r));
      expect(reported).toEqual([failure]);
      await expect(running).resolves.toBeUndefined();
      await new Promise((r) => setTimeout(r, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('reports nothing when the worker stops normally', async () => {
    const reported: unknown[] = [];
    await runWorker({ run: () => Promise.resolve() }, (err) => reported.push(err));
    expect(reported).toEqual([]);
  });
});

import { startTestPlatform, eventually } from '../support/platform';

/**
 * The worker stops only with the platform. One that ends on its own leaves the API taking events
 * that nobody delivers, so the process is told (enter-roles.ts stops it, to be restarted).
 */
describe('the delivery worker', () => {
  it('keeps running when the process gets a signal the Temporal SDK stops workers on by default (SIGUSR2)', async () => {
    const platform = await startTestPlatform();
    try {
      process.emit('SIGUSR2', 'SIGUSR2');
      // The SDK's handler stops workers from a microtask; these have all run after a turn of the loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(platform.worker!.getState()).toBe('RUNNING');
    } finally {
      await platform.stop();
    }
  }, 60_000);

  it('is reported lost when it ends without the platform stopping', async () => {
    let lost = 0;
    const platform = await startTestPlatform({ onLost: () => lost++ });
    try {
      platform.worker!.shutdown();
      await eventually(async () => lost === 1 || undefined, 30_000);
    } finally {
      await platform.stop();
    }
    expect(lost).toBe(1);
  }, 60_000);

  it('is not reported lost when the platform stops', async () => {
    let lost = 0;
    const platform = await startTestPlatform({ onLost: () => lost++ });
    await platform.stop();
    expect(platform.worker!.getState()).toBe('STOPPED');
    expect(lost).toBe(0);
  }, 60_000);
});

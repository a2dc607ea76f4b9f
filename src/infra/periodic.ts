/** A loop started by `periodic`. */
export interface Periodic {
  /** No new run starts; resolves once the one under way (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `tick` every `intervalMs`, one run at a time: a beat that comes while a run is under way is
 * skipped, so a slow store never piles runs up. A failed run goes to `onError` and the loop goes
 * on. The timer keeps nothing alive on its own.
 */
export function periodic(tick: () => Promise<void>, intervalMs: number, onError: (err: unknown) => void): Periodic {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = tick()
      .catch(onError)
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

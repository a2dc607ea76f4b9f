export type Periodic = ReturnType<typeof periodic>;

/** `tick` every `intervalMs` (at once too with `now`), one run at a time: a beat during a run is skipped, so a slow store never piles runs up. */
export function periodic(tick: () => Promise<unknown>, intervalMs: number, onError: (err: unknown) => void, options: { now?: boolean } = {}) {
  let running: Promise<unknown> | undefined;
  const beat = () => {
    if (running) return;
    running = tick()
      .catch(onError)
      .finally(() => (running = undefined));
  };
  const timer = setInterval(beat, intervalMs);
  timer.unref();
  if (options.now) beat();
  return {
    /** No new run starts; resolves once the one under way (if any) has ended. */
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

export interface Periodic {
  /** No new run starts; resolves once the one under way (if any) has ended. */
  stop(): Promise<void>;
}

/** `tick` every `intervalMs` (at once too with `now`), one run at a time: a beat during a run is skipped, so a slow store never piles runs up. */
export function periodic(tick: () => Promise<unknown>, intervalMs: number, onError: (err: unknown) => void, options: { now?: boolean } = {}): Periodic {
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
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

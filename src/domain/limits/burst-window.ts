const BURST_WINDOW_MS = 60_000;

/** One fixed burst window of a bucket; its `start` tells it from the bucket's other windows. */
export interface BurstWindow {
  start: Date;
  end: Date;
}

/** Current until it ends, even if it seems to start ahead (clock skew): another would give a second budget. */
export function isCurrent(window: BurstWindow, now: Date): boolean {
  return now < window.end;
}

/** CONTRACT §2: the window opened by a call at `now`, when the bucket's previous one has ended, lasts 60 s. */
export function windowFrom(now: Date): BurstWindow {
  return { start: now, end: new Date(now.getTime() + BURST_WINDOW_MS) };
}

const BURST_WINDOW_MS = 60_000;

/** One fixed burst window of a bucket; `seq` numbers a bucket's windows 1, 2, 3, ... */
export interface BurstWindow {
  seq: number;
  start: Date;
  end: Date;
}

/** Current until it ends, even if it seems to start ahead (clock skew): another would give a second budget. */
export function isCurrent(window: BurstWindow, now: Date): boolean {
  return now < window.end;
}

/** CONTRACT §2: the window after `latest` (which has ended) starts at the first call after it, lasting 60 s. */
export function nextWindow(latest: BurstWindow | null, now: Date): BurstWindow {
  return { seq: (latest?.seq ?? 0) + 1, start: now, end: new Date(now.getTime() + BURST_WINDOW_MS) };
}

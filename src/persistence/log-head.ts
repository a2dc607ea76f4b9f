/**
 * The latest entry of a log whose entries are numbered 1, 2, 3, ... with no gaps (each one is
 * inserted only after the one before it exists, and none is deleted alone), found with `_id`
 * lookups only (the one filter the embedded store answers from an index): an exponential search
 * upwards from `known` (an entry that exists, or none), then a binary search. A process that
 * keeps the entry it saw last pays one lookup when nothing was added since.
 */
export async function latestLogEntry<T extends { n: number }>(read: (n: number) => Promise<T | null>, known: T | null): Promise<T | null> {
  let best = known;
  let low = known?.n ?? 0; // exists (or 0)
  let step = 1;
  for (;;) {
    const found = await read(low + step);
    if (!found) break;
    best = found;
    low += step;
    step *= 2;
  }
  let high = low + step; // does not exist
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    const found = await read(mid);
    if (found) {
      best = found;
      low = mid;
    } else high = mid;
  }
  return best;
}

// The head of a log of claimed ids (`scope#1`, `scope#2`, ...) by `_id` lookups only (always indexed, mongo.ts). Exact as
// members are contiguous from the start: never deleted, all expiring together, or deleted only below the search's start.

export interface Member<T> {
  n: number;
  /** null only for n = 0 (an empty sequence), or a start taken on trust. */
  doc: T | null;
}

/** Exponential then binary search from `start` (a member, or 0), for fast growth; one lookup if none added. */
export async function findHeadGalloping<T>(read: (n: number) => Promise<T | null>, start: Member<T>): Promise<Member<T>> {
  let best = start;
  let low = start.n; // exists (or 0)
  let step = 1;
  for (;;) {
    const doc = await read(low + step);
    if (!doc) break;
    best = { n: low + step, doc };
    low += step;
    step *= 2;
  }
  let high = low + step; // does not exist
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    const doc = await read(mid);
    if (doc) {
      best = { n: mid, doc };
      low = mid;
    } else high = mid;
  }
  return best;
}

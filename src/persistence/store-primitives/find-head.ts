/**
 * Where a log of claimed ids (`scope#1`, `scope#2`, ...) has got to, found by `_id` lookups only
 * (the one lookup the embedded store always answers from an index, see mongo.ts). Exact because
 * members are contiguous: never deleted, or all expiring together.
 */

export interface Member<T> {
  n: number;
  /** null only for n = 0 (an empty sequence), or a start taken on trust. */
  doc: T | null;
}

/**
 * The last member, from `start` (a member that exists, or 0) probing n+1, n+2, ... one `_id`
 * lookup each: for sequences that grow by a member or two between reads (burst windows).
 */
export async function findHeadLinear<T>(read: (n: number) => Promise<T | null>, start: Member<T>): Promise<Member<T>> {
  let last = start;
  for (;;) {
    const doc = await read(last.n + 1);
    if (!doc) return last;
    last = { n: last.n + 1, doc };
  }
}

/**
 * The last member, from `start` (a member that exists, or 0): an exponential then a binary
 * search over `_id` lookups, for sequences that grow fast. One lookup when nothing was added.
 */
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

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

/** Claimed ids from `known` up to two missing in a row (a failed claim leaves a gap); the `near` ids above read at once first. */
export async function findHeadPastGaps<T>(read: (n: number) => Promise<T | null>, known: number, near = 0): Promise<number> {
  const found = await Promise.all(Array.from({ length: near }, (_, i) => read(known + 1 + i)));
  const twoMissing = found.findIndex((doc, i) => !doc && i + 1 < near && !found[i + 1]);
  if (twoMissing >= 0) return known + twoMissing;
  let head = known + found.map(Boolean).lastIndexOf(true) + 1;
  for (;;) {
    head = (await findHeadGalloping(read, { n: head, doc: null })).n;
    if (!(await read(head + 2))) return head;
    head += 2;
  }
}

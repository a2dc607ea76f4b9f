import type { Collection, Document, OptionalUnlessRequiredId } from 'mongodb';
import { isDuplicateKeyError } from './mongo';

/**
 * The one arbiter the embedded store offers between processes: a unique `_id`. FerretDB applies
 * no read-modify-write atomically, but it refuses a second document with the same `_id`; so
 * "exactly one of concurrent writers wins" is an insert whose `_id` names the thing claimed, and
 * "where has this sequence got to" is a probe by `_id` (the only lookup answered from an index,
 * see mongo.ts). Used by event ids, burst windows, limit block logs, idempotency records,
 * delivery rounds, invite redemptions, endpoint health logs and the cache-invalidations log. On real MongoDB, conditional updates could replace it.
 */

/** Member `n` of the sequence `scope`: its `_id`. */
export function memberId(scope: string, n: number): string {
  return `${scope}#${n}`;
}

/** Inserts `doc`: true when this insert wrote it, false when a document with its `_id` was there first. */
export async function insertUnique<T extends Document>(collection: Collection<T>, doc: OptionalUnlessRequiredId<T>): Promise<boolean> {
  try {
    await collection.insertOne(doc);
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
}

export interface Member<T> {
  n: number;
  /** null only for n = 0 (an empty sequence), or a start taken on trust. */
  doc: T | null;
}

/**
 * The last member, from `start` (a member that exists, or 0) probing n+1, n+2, ... one `_id`
 * lookup each: for sequences that grow by a member or two between reads (burst windows).
 */
export async function probeLinear<T>(read: (n: number) => Promise<T | null>, start: Member<T>): Promise<Member<T>> {
  let last = start;
  for (;;) {
    const doc = await read(last.n + 1);
    if (!doc) return last;
    last = { n: last.n + 1, doc };
  }
}

/**
 * The last member, from `start` (a member that exists, or 0): an exponential then a binary
 * search over `_id` lookups, for sequences that grow fast (block logs). Exact because members
 * are contiguous: never deleted, or all expiring together.
 */
export async function probeGalloping<T>(read: (n: number) => Promise<T | null>, start: Member<T>): Promise<Member<T>> {
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

import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection, Document, Filter, OptionalUnlessRequiredId } from 'mongodb';

/** How many times an insert taken back because of concurrent inserts tries again. */
const MAX_TRIES = 5;
/** The wait before trying again, per place in the queue of inserts taken back together. */
const STAGGER_MS = 25;

/**
 * Insert, read back, and take the insert back when over `cap`: exact without an atomic check-and-insert (FerretDB has
 * none), as the last of concurrent inserts sees all before it. Racers at the edge may all be taken back, so they retry.
 * Refused: `count`, how many there would be with it; `tookBack`: inserted, then removed (a reader may have seen it).
 */
export async function insertWithinCap<T extends Document & { _id: string }>(
  collection: Collection<T>,
  doc: OptionalUnlessRequiredId<T> & { _id: string },
  covered: Filter<T>,
  cap: number,
): Promise<{ inserted: true } | { inserted: false; count: number; tookBack: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const before = await collection.countDocuments(covered);
    if (before >= cap) return { inserted: false, count: before + 1, tookBack: attempt > 1 };
    await collection.insertOne(doc);
    const ids = (await collection.find(covered, { projection: { _id: 1 } }).toArray()).map((d) => String(d._id)).sort();
    if (ids.length <= cap) return { inserted: true };
    await collection.deleteOne({ _id: doc._id } as Filter<T>);
    if (attempt === MAX_TRIES) return { inserted: false, count: ids.length, tookBack: true };
    // As many steps as inserts too many (and one): enough to line up the racers for the last places.
    const excess = ids.length - cap;
    const place = Math.max(0, ids.indexOf(doc._id)) % (excess + 1);
    await sleep((place + 1) * STAGGER_MS + Math.random() * STAGGER_MS);
  }
}

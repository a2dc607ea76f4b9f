import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection, Document, Filter, OptionalUnlessRequiredId } from 'mongodb';

/** How many times an insert taken back because of concurrent inserts tries again. */
const MAX_TRIES = 5;
/** The wait before trying again, per place in the queue of inserts taken back together. */
const STAGGER_MS = 25;

/** `count`: how many there would be with it. `tookBack`: it was inserted, then removed (a reader may have seen it). */
type Refusal = { inserted: false; count: number; tookBack?: true };

const refusal = (count: number, tookBack: boolean): Refusal => (tookBack ? { inserted: false, count, tookBack } : { inserted: false, count });

/**
 * Insert within a cap: refused at once when the documents the cap covers already reach it;
 * otherwise insert, then read them, and take the insert back when there are more than `cap`. No atomic check-and-insert is needed (FerretDB has none): of
 * concurrent inserts, the last to be written sees every one written before it, so no read that
 * lets an insert stay can include more than `cap`; the cap is never exceeded. Correct on MongoDB
 * alike (a read after an acknowledged insert sees it and every insert acknowledged before it).
 *
 * Concurrent inserts at the edge may all see each other and all be taken back, though there was
 * room for some (of 12 concurrent endpoint creates with 5 places, none may be kept). So an insert taken
 * back tries again, after a wait set by its place among the ids it saw (the first waits least),
 * which lines the racers up one after another, and each try begins with the check above.
 */
export async function insertWithinCap<T extends Document & { _id: string }>(
  collection: Collection<T>,
  doc: OptionalUnlessRequiredId<T> & { _id: string },
  covered: Filter<T>,
  cap: number,
): Promise<{ inserted: true } | Refusal> {
  for (let attempt = 1; ; attempt++) {
    const before = await collection.countDocuments(covered);
    if (before >= cap) return refusal(before + 1, attempt > 1);
    await collection.insertOne(doc);
    const ids = (await collection.find(covered, { projection: { _id: 1 } }).toArray()).map((d) => String(d._id)).sort();
    if (ids.length <= cap) return { inserted: true };
    await collection.deleteOne({ _id: doc._id } as Filter<T>);
    if (attempt === MAX_TRIES) return refusal(ids.length, true);
    // As many steps as inserts too many (and one): enough to line up the racers for the last places.
    const excess = ids.length - cap;
    const place = Math.max(0, ids.indexOf(doc._id)) % (excess + 1);
    await sleep((place + 1) * STAGGER_MS + Math.random() * STAGGER_MS);
  }
}

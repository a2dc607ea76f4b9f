import type { Collection, Document, Filter, OptionalUnlessRequiredId } from 'mongodb';

/**
 * Insert within a cap: insert, then count the documents the cap covers, and take the insert back
 * when the count is over. No atomic check-and-insert is needed (FerretDB has none): of concurrent
 * inserts, the last to be written counts every one written before it, so no count that lets an
 * insert stay can include more than `cap`; the cap is never exceeded. At the very edge,
 * concurrent inserts may all see each other and all be taken back (a refusal a retry fixes).
 * Correct on MongoDB alike (a count after an acknowledged insert sees it and every insert
 * acknowledged before it).
 */
export async function insertWithinCap<T extends Document & { _id: string }>(
  collection: Collection<T>,
  doc: OptionalUnlessRequiredId<T> & { _id: string },
  covered: Filter<T>,
  cap: number,
): Promise<{ inserted: true } | { inserted: false; count: number }> {
  await collection.insertOne(doc);
  const count = await collection.countDocuments(covered);
  if (count <= cap) return { inserted: true };
  await collection.deleteOne({ _id: doc._id } as Filter<T>);
  return { inserted: false, count };
}

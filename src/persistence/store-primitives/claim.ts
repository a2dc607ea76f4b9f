import type { Collection, Document, OptionalUnlessRequiredId } from 'mongodb';
import { isDuplicateKeyError } from '../mongo';

// Where uniqueness is the point (an idempotency key, a delivery round, an invite redemption): of concurrent inserts of
// one `_id` exactly one succeeds, and the others learn it was there first.

/** Inserts `doc`: true when this insert wrote it, false when a document with its `_id` was there first. */
export async function claimOnce<T extends Document>(collection: Collection<T>, doc: OptionalUnlessRequiredId<T>): Promise<boolean> {
  try {
    await collection.insertOne(doc);
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
}

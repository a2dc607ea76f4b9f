import type { Collection, Document, Filter, UpdateFilter } from 'mongodb';
import { isDuplicateKeyError } from '../mongo';

/** A hint is only a lower bound: a raise lost on the embedded store leaves it lower, never wrong. */
export async function raiseHint<D extends Document & { _id: string }>(col: Collection<D>, _id: string, update: UpdateFilter<D>): Promise<void> {
  const filter = { _id } as Filter<D>;
  try {
    await col.updateOne(filter, update, { upsert: true });
  } catch (err) {
    // Two first raises at once on the embedded store: the loser's insert is refused, so it retries once as an update.
    if (!isDuplicateKeyError(err)) throw err;
    await col.updateOne(filter, update);
  }
}

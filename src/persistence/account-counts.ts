import type { Db } from 'mongodb';

/** What an account holds under a cap: its endpoints, its live API keys. */
export type CountedKind = 'endpoints' | 'live_keys';

interface AccountCountDoc {
  /** The account's id. */
  _id: string;
  endpoints: number;
  live_keys: number;
}

/**
 * `account_counts`: one document per account, a counter per capped kind. A place is taken by one conditional `$inc`
 * before the insert it is for and given back after a delete (or a failed insert), so concurrent creates never pass the
 * cap. A process killed between taking a place and inserting leaves the place taken: the cap is then one lower, never over.
 */
export function accountCountsOf(db: Db) {
  const counts = db.collection<AccountCountDoc>('account_counts');
  return {
    /** Takes one place of `kind` if the account holds fewer than `max` (false: none taken). */
    async take(accountId: string, kind: CountedKind, max: number): Promise<boolean> {
      await counts.updateOne({ _id: accountId }, { $setOnInsert: { endpoints: 0, live_keys: 0 } }, { upsert: true });
      const placed = await counts.updateOne({ _id: accountId, [kind]: { $lt: max } }, { $inc: { [kind]: 1 } });
      return placed.modifiedCount === 1;
    },

    async giveBack(accountId: string, kind: CountedKind): Promise<void> {
      await counts.updateOne({ _id: accountId }, { $inc: { [kind]: -1 } });
    },
  };
}

import type { Db } from 'mongodb';
import { isDuplicateKeyError } from './mongo';

/** What an account holds under a cap: its endpoints, its live API keys. */
type CountedKind = 'endpoints' | 'live_keys';

interface AccountCountDoc {
  /** The account's id. */
  _id: string;
  endpoints: number;
  live_keys: number;
}

/**
 * `account_counts`: one document per account, a counter per capped kind. A place is taken by one conditional `$inc` upsert
 * before the insert it is for and given back after a delete (or a failed insert), so concurrent creates never pass the
 * cap. A process killed between taking a place and inserting leaves the place taken: the cap is then one lower, never over.
 */
export function accountCountsOf(db: Db) {
  const counts = db.collection<AccountCountDoc>('account_counts');
  const other: Record<CountedKind, CountedKind> = { endpoints: 'live_keys', live_keys: 'endpoints' };

  /** Takes one place of `kind` if the account holds fewer than `max`: at the cap, the upsert's insert meets the `_id`. */
  async function take(accountId: string, kind: CountedKind, max: number): Promise<boolean> {
    if (max <= 0) return false;
    try {
      await counts.updateOne({ _id: accountId, [kind]: { $lt: max } }, { $inc: { [kind]: 1 }, $setOnInsert: { [other[kind]]: 0 } }, { upsert: true });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  async function giveBack(accountId: string, kind: CountedKind): Promise<void> {
    await counts.updateOne({ _id: accountId }, { $inc: { [kind]: -1 } });
  }

  return {
    /** Runs `insert` in a place of `kind` taken first (false: the account is at `max`, nothing inserted); a failed insert gives the place back. */
    async insertIfRoom(accountId: string, kind: CountedKind, max: number, insert: () => Promise<unknown>): Promise<boolean> {
      if (!(await take(accountId, kind, max))) return false;
      try {
        await insert();
      } catch (err) {
        await giveBack(accountId, kind);
        throw err;
      }
      return true;
    },
    giveBack,
  };
}

import type { Db } from 'mongodb';
import { unlessIdTaken } from './mongo';

/** What an account holds under a cap: its endpoints, its live API keys, its catalog's event types (its tenants: account-tenant-places.ts). */
const COUNTED_KINDS = ['endpoints', 'live_keys', 'event_types'] as const;
type CountedKind = (typeof COUNTED_KINDS)[number];

/** The account's id, and a counter per kind (a kind added later is absent from older documents: none held). */
type AccountCountDoc = { _id: string } & Partial<Record<CountedKind, number>>;

/**
 * `account_counts`: one document per account, a counter per capped kind. A place is taken by one conditional `$inc` upsert
 * before the insert it is for and given back after a delete (or a failed insert), so concurrent creates never pass the
 * cap. A process killed between taking a place and inserting leaves the place taken: the cap is then one lower, never over.
 */
export function accountCountsOf(db: Db) {
  const counts = db.collection<AccountCountDoc>('account_counts');
  /**
   * Takes one place of `kind` if the account holds fewer than `max` (an absent counter holds none): at the cap, the upsert's
   * insert meets the `_id`. So does it on MongoDB when a concurrent first take inserted the document: the update alone decides.
   */
  async function take(accountId: string, kind: CountedKind, max: number): Promise<boolean> {
    if (max <= 0) return false;
    const others = Object.fromEntries(COUNTED_KINDS.filter((k) => k !== kind).map((k) => [k, 0]));
    const filter = { _id: accountId, [kind]: { $not: { $gte: max } } };
    const update = { $inc: { [kind]: 1 }, $setOnInsert: others };
    const taken = (await unlessIdTaken(() => counts.updateOne(filter, update, { upsert: true }))) ?? (await counts.updateOne(filter, update));
    return taken.matchedCount + taken.upsertedCount === 1;
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

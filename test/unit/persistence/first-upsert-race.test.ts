import { MongoServerError, type Db } from 'mongodb';
import { accountCountsOf } from '../../../src/persistence/account-counts';
import { DashboardSignInAttempts } from '../../../src/persistence/dashboard-sign-in-attempts';

type Doc = Record<string, any> & { _id: string };

/**
 * One document store answering as MongoDB does to two concurrent first upserts of one `_id` whose filter holds more
 * than the `_id` (the server retries only an upsert whose filter is that equality alone): the other writer's insert lands
 * first, and this upsert's insert fails with E11000 although the filter holds on what was inserted.
 */
function storeWhereAnotherInsertsFirst(inserted: Doc) {
  let doc: Doc | null = null;
  const matches = (filter: Record<string, any>) =>
    doc !== null &&
    Object.entries(filter).every(([field, cond]) => {
      if (field === '_id') return doc!._id === cond;
      const value = doc![field] ?? 0;
      if (cond.$lt !== undefined) return value < cond.$lt;
      if (cond.$not?.$gte !== undefined) return !(value >= cond.$not.$gte);
      throw new Error(`condition not modelled: ${JSON.stringify(cond)}`);
    });
  const apply = (update: Record<string, any>) => {
    for (const [field, by] of Object.entries(update.$inc ?? {})) doc![field] = (doc![field] ?? 0) + (by as number);
  };
  const write = (filter: Record<string, any>, update: Record<string, any>, options: { upsert?: boolean } = {}) => {
    if (options.upsert && doc === null) {
      doc = { ...inserted };
      throw new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 });
    }
    if (!matches(filter)) return null;
    apply(update);
    return doc;
  };
  const collection = {
    updateOne: async (filter: any, update: any, options?: any) => {
      const after = write(filter, update, options);
      return { matchedCount: after ? 1 : 0, upsertedCount: 0 };
    },
    findOneAndUpdate: async (filter: any, update: any, options?: any) => write(filter, update, options),
    findOne: async () => doc,
    deleteOne: async () => ({ deletedCount: 0 }),
  };
  return { db: { collection: () => collection } as unknown as Db, current: () => doc };
}

describe('a first upsert that meets a concurrent first insert (MongoDB)', () => {
  it("an account's place is taken when the concurrent insert left room, not refused as if at the cap", async () => {
    const store = storeWhereAnotherInsertsFirst({ _id: 'acct_1', endpoints: 1, live_keys: 0, event_types: 0, tenants: 0 });
    let inserted = false;
    const room = await accountCountsOf(store.db).insertIfRoom('acct_1', 'endpoints', 10, async () => (inserted = true));
    expect({ room, inserted, endpoints: store.current()?.endpoints }).toEqual({ room: true, inserted: true, endpoints: 2 });
  });

  it('a sign-in attempt is counted in the window the concurrent one opened, not refused as over the limit', async () => {
    const windowEnd = new Date('2026-11-29T12:15:00Z');
    const store = storeWhereAnotherInsertsFirst({ _id: 'ip:192.0.2.1', n: 1, expires_at: windowEnd });
    const counted = await new DashboardSignInAttempts(store.db).count('ip:192.0.2.1', new Date('2026-11-29T12:00:00Z'), 15 * 60_000, 20);
    expect({ counted, n: store.current()?.n }).toEqual({ counted: { windowEnd }, n: 2 });
  });
});

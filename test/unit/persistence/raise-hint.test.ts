import { MongoServerError, type Collection } from 'mongodb';
import { raiseHint } from '../../../src/persistence/store-primitives';

type Hint = { _id: string; n: number };

/**
 * The racy point held: another process's first raise of the same hint inserted the document
 * between this upsert's read (nothing there) and its insert. The embedded store then refuses the
 * insert as a duplicate key; real MongoDB can too.
 */
function collectionLosingTheFirstInsert() {
  const calls: Array<{ update: unknown; upsert: boolean }> = [];
  const col = {
    async updateOne(_filter: unknown, update: unknown, options?: { upsert?: boolean }) {
      calls.push({ update, upsert: options?.upsert === true });
      if (calls.length === 1) throw new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 });
      return { acknowledged: true, matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null };
    },
  };
  return { col: col as unknown as Collection<Hint>, calls };
}

describe('raiseHint against a concurrent first raise', () => {
  it('a first raise whose insert loses to another process is made again as an update of the document that won', async () => {
    const { col, calls } = collectionLosingTheFirstInsert();
    await raiseHint(col, 'h', { $max: { n: 7 } });
    expect(calls).toEqual([
      { update: { $max: { n: 7 } }, upsert: true },
      { update: { $max: { n: 7 } }, upsert: false },
    ]);
  });

  it('any other store error reaches the caller, not retried', async () => {
    const col = { updateOne: jest.fn().mockRejectedValue(new MongoServerError({ message: 'not primary', code: 10107 })) } as unknown as Collection<Hint>;
    await expect(raiseHint(col, 'h', { $max: { n: 1 } })).rejects.toMatchObject({ code: 10107 });
    expect(col.updateOne).toHaveBeenCalledTimes(1);
  });
});

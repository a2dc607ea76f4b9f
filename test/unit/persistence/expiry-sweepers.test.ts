import type { Collection } from 'mongodb';
import { MongoServerError } from 'mongodb';
import { ExpirySweepers } from '../../../src/persistence/expiry-sweepers';

/** A collection of a store without TTL indexes (FerretDB answers 238), counting its purges. */
function storeWithoutTtl() {
  const purges: unknown[] = [];
  const collection = {
    createIndex: async (_keys: unknown, options: { expireAfterSeconds?: number }) => {
      if (options.expireAfterSeconds !== undefined) throw new MongoServerError({ code: 238, message: 'not implemented' });
      return 'ok';
    },
    find: (filter: unknown) => ({
      toArray: async () => {
        purges.push(filter);
        return [];
      },
    }),
  } as unknown as Collection;
  return { collection, purges };
}

describe('expiry sweepers', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('purge by a timer where the store has no TTL index', async () => {
    const sweepers = new ExpirySweepers();
    const { collection, purges } = storeWithoutTtl();
    expect(await sweepers.ensureExpiry(collection)).toBe('purge-timer');
    jest.advanceTimersByTime(3 * 60_000);
    expect(purges).toHaveLength(3);
    sweepers.stop();
  });

  it('two platforms started, one stopped: the other keeps purging', async () => {
    const first = new ExpirySweepers();
    const second = new ExpirySweepers();
    const a = storeWithoutTtl();
    const b = storeWithoutTtl();
    await first.ensureExpiry(a.collection);
    await second.ensureExpiry(b.collection);

    first.stop();
    jest.advanceTimersByTime(2 * 60_000);

    expect(a.purges).toHaveLength(0);
    expect(b.purges).toHaveLength(2);
    second.stop();
  });
});

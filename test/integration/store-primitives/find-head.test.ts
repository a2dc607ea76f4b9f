import type { Db } from 'mongodb';
import { findHeadGalloping } from '../../../src/persistence/store-primitives';
import { tallyLog } from '../../support/store-primitive-ops';
import { runWritersTogether } from '../../support/store-writers';
import { openTestDb } from '../../support/test-db';

/** Find where a log of claimed ids has got to, by `_id` lookups only, on the real embedded store. */
describe('store primitive: find the head of a log', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('find_head');
    db = store.db;
  });
  afterAll(() => store.close());

  const reader = (scope: string) => {
    const log = tallyLog(db);
    let lookups = 0;
    const read = (n: number) => {
      lookups++;
      return log.entry(scope, n);
    };
    return { read, lookups: () => lookups };
  };

  it('an empty log has its head at 0', async () => {
    const { read } = reader('none');
    expect((await findHeadGalloping(read, { n: 0, doc: null })).n).toBe(0);
  });

  it('finds the last entry in a logarithmic number of lookups', async () => {
    const log = tallyLog(db);
    for (let i = 1; i <= 100; i++) await log.push('hundred', { cum: i, by: 'w' });
    const galloping = reader('hundred');
    expect(await findHeadGalloping(galloping.read, { n: 0, doc: null })).toEqual({ n: 100, doc: { n: 100, value: { cum: 100, by: 'w' } } });
    expect(galloping.lookups()).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(100)) + 2);
  });

  it('while two processes append, every head found exists and never moves back; once they stop, the search finds the last entry', async () => {
    const count = 80;
    const job = { uri: process.env.MONGODB_URI!, db: db.databaseName, op: 'push' as const, scope: 'growing', count };
    const { read } = reader('growing');
    const found: number[] = [];
    let writing = true;
    const searching = (async () => {
      let known = { n: 0, doc: null as Awaited<ReturnType<typeof read>> };
      while (writing) {
        known = await findHeadGalloping(read, known);
        found.push(known.n);
        if (known.n > 0) expect(await read(known.n)).not.toBeNull();
      }
    })();
    await runWritersTogether<number[]>([
      { ...job, name: 'a' },
      { ...job, name: 'b' },
    ]).finally(() => (writing = false));
    await searching;
    expect(found).toEqual([...found].sort((x, y) => x - y));
    expect((await findHeadGalloping(read, { n: 0, doc: null })).n).toBe(2 * count);
  });
});

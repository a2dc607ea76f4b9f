import type { Db } from 'mongodb';
import { tallyCells } from '../../support/store-primitive-ops';
import { runWritersTogether } from '../../support/store-writers';
import { openTestDb } from '../../support/test-db';

/** Compare-and-set a small document, on the real embedded store. */
describe('store primitive: compare-and-set a small document', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  beforeAll(async () => {
    store = await openTestDb('compare_and_set');
    db = store.db;
  });
  afterAll(() => store.close());

  const job = (op: 'compareAndSet' | 'conditionalUpdate', scope: string, count: number) => ({ uri: process.env.MONGODB_URI!, db: db.databaseName, op, scope, count });

  it('a cell never written reads as version 0 and no value', async () => {
    expect(await tallyCells(db).read('never')).toEqual({ version: 0, value: null });
  });

  it('sets when the version is the one expected, and refuses a stale version', async () => {
    const cells = tallyCells(db);
    expect(await cells.compareAndSet('c', 0, { cum: 1, by: 'x' })).toBe(true);
    expect(await cells.compareAndSet('c', 0, { cum: 9, by: 'stale' })).toBe(false);
    expect(await cells.read('c')).toEqual({ version: 1, value: { cum: 1, by: 'x' } });
  });

  it('update applies a change to the current value, again on a newer one when another setter won', async () => {
    const mine = tallyCells(db);
    await mine.update('u', () => ({ cum: 1, by: 'mine' }));
    await tallyCells(db).update('u', (v) => ({ cum: (v?.cum ?? 0) + 10, by: 'other' }));
    expect(await mine.update('u', (v) => ({ cum: (v?.cum ?? 0) + 100, by: 'mine' }))).toEqual({ cum: 111, by: 'mine' });
  });

  it('two processes incrementing one cell by read and compare-and-set: no increment lost', async () => {
    const count = 60;
    const [a, b] = await runWritersTogether<number[]>([
      { ...job('compareAndSet', 'race', count), name: 'a' },
      { ...job('compareAndSet', 'race', count), name: 'b' },
    ]);
    expect(new Set([...a, ...b]).size).toBe(2 * count);
    expect(await tallyCells(db).read('race')).toEqual({ version: 2 * count, value: { cum: 2 * count, by: expect.any(String) } });
  });

  /**
   * Why compare-and-set is built from claims: the store's own conditional update, under the same
   * two writers, measured. On MongoDB every success it reports is one increment; the embedded
   * store's result is printed, and the test fails if it ever becomes exact, so that the primitive
   * can then be reconsidered (docs/embedded-store.md).
   */
  it("measured: the embedded store's own conditional update (updateOne on {_id, version}) under two writers", async () => {
    const count = 60;
    await db.collection<{ _id: string; v: number }>('counters').insertOne({ _id: 'measure', v: 0 });
    const [a, b] = await runWritersTogether<number>([
      { ...job('conditionalUpdate', 'measure', count), name: 'a' },
      { ...job('conditionalUpdate', 'measure', count), name: 'b' },
    ]);
    const final = (await db.collection<{ _id: string; v: number }>('counters').findOne({ _id: 'measure' }))?.v;
    // eslint-disable-next-line no-console
    console.log(`conditional update, two writers: told ${a + b} successes, counter at ${final}`);
    expect(a + b).toBe(2 * count);
  });
});

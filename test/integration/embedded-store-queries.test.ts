import { Double, Long, type Collection, type Db } from 'mongodb';
import { openTestDb } from '../support/test-db';

/**
 * The embedded store (FerretDB as `npm run provision` builds it, src/infra/ferretdb-patches/)
 * answers `_id` lookups, top-level string equalities and an equality's newest n by a ranged field
 * from SQLite indexes, and still with MongoDB's matching and sorting rules. On real MongoDB every
 * case here holds anyway.
 */
describe('the embedded store answers equality filters from its indexes, with MongoDB semantics', () => {
  let close: () => Promise<void>;
  let db: Db;
  let col: Collection<{ _id: string; account_id: unknown; created_at?: number; n?: number }>;

  /** SQLite's plan as FerretDB reports it (`explain`); on MongoDB the winning plan. */
  async function plan(filter: Record<string, unknown>): Promise<string> {
    const explained = await db.command({ explain: { find: col.collectionName, filter }, verbosity: 'queryPlanner' });
    return JSON.stringify(explained.queryPlanner);
  }

  beforeAll(async () => {
    ({ db, close } = await openTestDb('embedded_store_queries'));
    col = db.collection('things');
    await col.createIndex({ account_id: 1, created_at: -1, _id: -1 });
    const docs = Array.from({ length: 300 }, (_, i) => ({ _id: `t_${i}`, account_id: `acct_${i % 30}`, created_at: i, n: i }));
    for (let i = 0; i < docs.length; i += 50) await col.insertMany(docs.slice(i, i + 50));
  });
  afterAll(async () => {
    await close?.();
  });

  it('looks an account up by its index, not by reading the collection', async () => {
    const text = await plan({ account_id: 'acct_7' });
    expect(text).toMatch(/USING INDEX|IXSCAN/);
    expect(text).not.toMatch(/\bSCAN things|COLLSCAN/);
  });

  it('looks an _id up by its index, also beside other conditions', async () => {
    for (const filter of [{ _id: 't_7' }, { _id: 't_7', account_id: 'acct_7' }]) {
      const text = await plan(filter);
      expect(text).toMatch(/USING INDEX|IDHACK|IXSCAN|EXPRESS/);
      expect(text).not.toMatch(/\bSCAN things|COLLSCAN/);
    }
  });

  it('answers an account with an `_id` $in list (the event list\'s delivery statuses) from the account index, exactly', async () => {
    const filter = { account_id: 'acct_7', _id: { $in: ['t_7', 't_37', 't_8', 't_999'] } };
    const text = await plan(filter);
    expect(text).toMatch(/USING INDEX|IDHACK|IXSCAN|EXPRESS/);
    expect(text).not.toMatch(/\bSCAN things|COLLSCAN/);
    expect((await col.find(filter).toArray()).map((d) => d._id).sort()).toEqual(['t_37', 't_7']);
  });

  it('finds exactly the account’s documents, sorted and limited as asked', async () => {
    const docs = await col.find({ account_id: 'acct_7' }).sort({ created_at: -1, _id: -1 }).limit(4).toArray();
    expect(docs.map((d) => d._id)).toEqual(['t_277', 't_247', 't_217', 't_187']);
    expect(await col.countDocuments({ account_id: 'acct_7' })).toBe(10);
  });

  it('matches a `$in` of numbers and strings with every numeric type MongoDB calls equal, a string never a number', async () => {
    await col.insertOne({ _id: 'n-array', account_id: 'acct_7', n: [1_000, 97] } as never);
    const filter = { account_id: 'acct_7', n: { $in: [7, 37, Long.fromNumber(67), new Double(97), '127', 'x'] } };
    expect((await col.find(filter as never).toArray()).map((d) => d._id).sort()).toEqual(['n-array', 't_37', 't_67', 't_7', 't_97']);
    await col.deleteOne({ _id: 'n-array' });
  });

  it('still matches a field holding an array that contains the value, as MongoDB does', async () => {
    await col.insertOne({ _id: 'array', account_id: ['acct_x', 'acct_array'] });
    expect((await col.find({ account_id: 'acct_array' }).toArray()).map((d) => d._id)).toEqual(['array']);
  });

  it('applies the rest of the filter exactly', async () => {
    const docs = await col.find({ account_id: 'acct_7', n: { $gt: 200 }, $or: [{ created_at: 217 }, { created_at: 277 }] }).toArray();
    expect(docs.map((d) => d._id).sort()).toEqual(['t_217', 't_277']);
    expect(await col.find({ account_id: 'acct_7', created_at: 7 }).toArray()).toHaveLength(1);
  });

  it('matches strings with characters JSON escapes, by _id and by field', async () => {
    for (const value of ['a<b&c>d', 'quote"back\\slash/slash', 'line\u2028sep', 'ctl\u0001', 'é ü 雪']) {
      await col.insertOne({ _id: `s:${value}`, account_id: value });
      expect(await col.findOne({ _id: `s:${value}` })).not.toBeNull();
      expect((await col.find({ account_id: value }).toArray()).map((d) => d._id)).toEqual([`s:${value}`]);
    }
  });

  it('does not match a string against a number or a missing field', async () => {
    await col.insertOne({ _id: 'number', account_id: 42 });
    await col.insertOne({ _id: 'missing' } as never);
    expect(await col.find({ account_id: '42' }).toArray()).toEqual([]);
    expect((await col.find({ account_id: 42 }).toArray()).map((d) => d._id)).toEqual(['number']);
  });

  it('looks a numeric _id up by its index and matches every numeric type MongoDB calls equal, a string never', async () => {
    const numbers = db.collection<{ _id: number | string | Long | Double; as: string }>('numbered');
    await numbers.insertMany([
      { _id: 7, as: 'int32' },
      { _id: Long.fromNumber(8), as: 'int64' },
      { _id: new Double(9), as: 'double' },
      { _id: 2 ** 40 + 3, as: 'large' },
      { _id: new Double(-0), as: 'negative zero' },
      { _id: '10', as: 'string' },
    ]);
    const explained = await db.command({ explain: { find: 'numbered', filter: { _id: 7 } }, verbosity: 'queryPlanner' });
    expect(JSON.stringify(explained.queryPlanner)).toMatch(/USING INDEX|IDHACK|IXSCAN|EXPRESS/);
    const found = async (_id: number | Long | Double) => (await numbers.find({ _id }).toArray()).map((d) => d.as);
    expect(await found(new Double(7))).toEqual(['int32']);
    expect(await found(Long.fromNumber(7))).toEqual(['int32']);
    expect(await found(8)).toEqual(['int64']);
    expect(await found(new Double(8))).toEqual(['int64']);
    expect(await found(9)).toEqual(['double']);
    expect(await found(Long.fromNumber(9))).toEqual(['double']);
    expect(await found(new Double(2 ** 40 + 3))).toEqual(['large']);
    expect(await found(Long.fromNumber(2 ** 40 + 3))).toEqual(['large']);
    expect(await found(0)).toEqual(['negative zero']);
    expect(await found(10)).toEqual([]);
    expect(await found(new Double(7.5))).toEqual([]);
  });

  describe('a sort on a ranged field with a limit (an account\'s newest events)', () => {
    let events: Collection<{ _id: string; account_id: unknown; seq?: unknown }>;
    const page = async (filter: Record<string, unknown>, sort: 1 | -1, limit: number) => (await events.find(filter).sort({ seq: sort }).limit(limit).toArray()).map((d) => d._id);

    beforeAll(async () => {
      events = db.collection('events');
      await events.createIndex({ account_id: 1, seq: -1 });
      const plain = Array.from({ length: 15 }, (_, i) => ({ _id: `i${i + 1}`, account_id: 'a', seq: i + 1 }));
      const others = Array.from({ length: 30 }, (_, i) => ({ _id: `b${i + 1}`, account_id: 'b', seq: i + 100 }));
      await events.insertMany([
        ...plain,
        ...others,
        { _id: 'long16', account_id: 'a', seq: Long.fromNumber(16) },
        { _id: 'double16.5', account_id: 'a', seq: new Double(16.5) },
        { _id: 'double17', account_id: 'a', seq: new Double(17) },
        { _id: 'array', account_id: 'a', seq: [2, 18] },
        { _id: 'in-two-accounts', account_id: ['b', 'a'], seq: 19 },
        { _id: 'date', account_id: 'a', seq: new Date(21) },
        { _id: 'string', account_id: 'a', seq: '22' },
        { _id: 'object', account_id: 'a', seq: { v: 23 } },
        { _id: 'true', account_id: 'a', seq: true },
        { _id: 'null', account_id: 'a', seq: null },
        { _id: 'no-seq', account_id: 'a' },
        { _id: 'numeric-account', account_id: 42, seq: 24 },
        { _id: 'tie-a', account_id: 'a', seq: 12 },
        { _id: 'tie-b', account_id: 'a', seq: new Double(12) },
      ]);
    });

    it('walks the index on {account_id, seq} in order and stops at the limit', async () => {
      const explained = await db.command({ explain: { find: 'events', filter: { account_id: 'a', seq: { $lt: 1000 } }, sort: { seq: -1 }, limit: 20 }, verbosity: 'queryPlanner' });
      const text = JSON.stringify(explained.queryPlanner);
      expect(text).toMatch(/USING INDEX \S+ \(<expr>=\? AND <expr><\?\)|IXSCAN/);
      expect(text).not.toMatch(/TEMP B-TREE FOR ORDER BY|"stage":"SORT"|\bSCAN events|COLLSCAN/);
    });

    it('answers as MongoDB: numbers of every type in numeric order, arrays by their largest element, other types unmatched', async () => {
      expect(await page({ account_id: 'a', seq: { $lt: 1000 } }, -1, 6)).toEqual(['in-two-accounts', 'array', 'double17', 'double16.5', 'long16', 'i15']);
      expect(await page({ account_id: 'b', seq: { $lt: 1000 } }, -1, 2)).toEqual(['b30', 'b29']);
      expect(await page({ account_id: 'a', seq: { $gte: 5, $lte: 7 } }, -1, 2)).toEqual(['array', 'i7']);
      expect(await page({ account_id: 'c', seq: { $lt: 1000 } }, -1, 5)).toEqual([]);
    });

    it('answers ascending sorts as MongoDB: an array by its smallest element', async () => {
      expect(await page({ account_id: 'a', seq: { $gt: 15 } }, 1, 4)).toEqual(['array', 'long16', 'double16.5', 'double17']);
      const [first, ...tied] = await page({ account_id: 'a', seq: { $gt: new Double(0.5) } }, 1, 3);
      expect(first).toBe('i1');
      expect(new Set(tied)).toEqual(new Set(['i2', 'array']));
    });

    it('keeps every tie at the limit\'s edge a match, and pages by seq without losing or repeating one', async () => {
      const top = await events.find({ account_id: 'a', seq: { $lt: 13 } }).sort({ seq: -1 }).limit(4).toArray();
      expect(top[0]._id).toBe('array');
      expect(top.slice(1).map((d) => Number(d.seq))).toEqual([12, 12, 12]);
      expect(new Set(top.slice(1).map((d) => d._id))).toEqual(new Set(['i12', 'tie-a', 'tie-b']));
      const seen: unknown[] = [];
      for (let before = 12; ; ) {
        const next = await events.find({ account_id: 'a', seq: { $lt: before } }).sort({ seq: -1 }).limit(3).toArray();
        const numbers = next.filter((d) => typeof d.seq === 'number');
        seen.push(...numbers.map((d) => d._id));
        if (numbers.length === 0) break;
        before = numbers[numbers.length - 1].seq as number;
      }
      expect(seen).toEqual(Array.from({ length: 11 }, (_, i) => `i${11 - i}`));
    });
  });
});

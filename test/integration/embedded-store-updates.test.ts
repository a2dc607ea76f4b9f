import type { Collection, Db, Document } from 'mongodb';
import { openTestDb } from '../support/test-db';

/**
 * Update operators on the embedded store answer as MongoDB's do (docs/embedded-store.md): a `$set` that
 * changes a field's embedded document changes it, even when the new one has as many fields with equal values.
 */
describe('embedded store: $set of embedded documents', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  let docs: Collection<{ _id: string; [field: string]: unknown }>;
  beforeAll(async () => {
    store = await openTestDb('store_updates');
    db = store.db;
    docs = db.collection('docs');
  });
  afterAll(() => store.close());

  it('replaces an embedded document by one of other keys with equal values, and counts it modified', async () => {
    await docs.insertOne({ _id: 'other-keys', foo: { a: 1 } });
    const result = await docs.updateOne({ _id: 'other-keys' }, { $set: { foo: { b: 1 } } });
    expect([result.matchedCount, result.modifiedCount]).toEqual([1, 1]);
    expect(await docs.findOne({ _id: 'other-keys' })).toEqual({ _id: 'other-keys', foo: { b: 1 } });
  });

  it('replaces an embedded document by the same fields in another order (field order is part of a document)', async () => {
    await docs.insertOne({ _id: 'order', foo: { a: 1, b: 2 } });
    expect((await docs.updateOne({ _id: 'order' }, { $set: { foo: { b: 2, a: 1 } } })).modifiedCount).toBe(1);
    expect(Object.keys(((await docs.findOne({ _id: 'order' }))?.foo ?? {}) as object)).toEqual(['b', 'a']);
  });

  it('replaces a nested embedded document set by path, and findOneAndUpdate answers the new one', async () => {
    await docs.insertOne({ _id: 'nested', x: { y: { d: 1 } } });
    const after = await docs.findOneAndUpdate({ _id: 'nested' }, { $set: { 'x.y': { c: 1 } } }, { returnDocument: 'after' });
    expect(after).toEqual({ _id: 'nested', x: { y: { c: 1 } } });
  });

  it('counts a $set of an identical embedded document as matched, not modified', async () => {
    await docs.insertOne({ _id: 'same', foo: { a: 1, b: [1, { c: 2 }] } });
    const result = await docs.updateOne({ _id: 'same' }, { $set: { foo: { a: 1, b: [1, { c: 2 }] } } });
    expect([result.matchedCount, result.modifiedCount]).toEqual([1, 0]);
  });
});

/**
 * `$push` with `$each` and its modifiers, `$addToSet` with `$each`, and `$pull` with a condition, answer as MongoDB
 * documents them (docs/embedded-store.md): a modifier the store does not apply is refused with an error, never ignored.
 */
describe('embedded store: $push and $addToSet modifiers, $pull conditions', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let docs: Collection<{ _id: string; xs?: unknown[] }>;
  let seq = 0;
  beforeAll(async () => {
    store = await openTestDb('store_array_updates');
    docs = store.db.collection('docs');
  });
  afterAll(() => store.close());

  /** A new document holding `xs`, `update` applied with updateOne: the `xs` it leaves. Updates are plain documents: the driver's types refuse a misspelt modifier. */
  const after = async (xs: unknown[], update: Document) => {
    const _id = `doc${++seq}`;
    await docs.insertOne({ _id, xs });
    await docs.updateOne({ _id }, update);
    return (await docs.findOne({ _id }))?.xs;
  };

  it('$slice keeps the last n (negative), the first n (positive), or none (0) after the push', async () => {
    expect(await after([1, 2, 3], { $push: { xs: { $each: [4, 5], $slice: -3 } } })).toEqual([3, 4, 5]);
    expect(await after([1, 2, 3], { $push: { xs: { $each: [4], $slice: 2 } } })).toEqual([1, 2]);
    expect(await after([1, 2, 3], { $push: { xs: { $each: [4], $slice: 0 } } })).toEqual([]);
    expect(await after([1, 2], { $push: { xs: { $each: [3], $slice: -5 } } })).toEqual([1, 2, 3]);
  });

  it('$slice applies in findOneAndUpdate and to an upsert that creates the array', async () => {
    await docs.insertOne({ _id: 'fam', xs: ['a', 'b'] });
    expect(await docs.findOneAndUpdate({ _id: 'fam' }, { $push: { xs: { $each: ['c'], $slice: -2 } } }, { returnDocument: 'after' })).toEqual({ _id: 'fam', xs: ['b', 'c'] });
    await docs.updateOne({ _id: 'upserted' }, { $push: { xs: { $each: [1, 2, 3], $slice: -2 } } }, { upsert: true });
    expect(await docs.findOne({ _id: 'upserted' })).toEqual({ _id: 'upserted', xs: [2, 3] });
  });

  it('$position inserts at an index, counted from the end when negative, first when 0', async () => {
    expect(await after([1, 2, 3], { $push: { xs: { $each: ['a', 'b'], $position: 1 } } })).toEqual([1, 'a', 'b', 2, 3]);
    expect(await after([1, 2, 3], { $push: { xs: { $each: ['a'], $position: -1 } } })).toEqual([1, 2, 'a', 3]);
    expect(await after([1, 2, 3], { $push: { xs: { $each: ['a'], $position: 0 } } })).toEqual(['a', 1, 2, 3]);
    expect(await after([1, 2, 3], { $push: { xs: { $each: ['a'], $position: 9 } } })).toEqual([1, 2, 3, 'a']);
  });

  it('$sort orders the whole array after the push, by value or by fields of its documents, before $slice', async () => {
    expect(await after([3, 1], { $push: { xs: { $each: [2], $sort: 1 } } })).toEqual([1, 2, 3]);
    expect(await after([3, 1], { $push: { xs: { $each: [2], $sort: -1 } } })).toEqual([3, 2, 1]);
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute));
    expect(await after([{ n: 'a', t: at(5) }, { n: 'b', t: at(1) }], { $push: { xs: { $each: [{ n: 'c', t: at(3) }], $sort: { t: -1 }, $slice: 2 } } })).toEqual([
      { n: 'a', t: at(5) },
      { n: 'c', t: at(3) },
    ]);
  });

  it('refuses a clause beside $each that it does not know, and a $slice that is not an integer, changing nothing', async () => {
    await docs.insertOne({ _id: 'refused', xs: [1] });
    await expect(docs.updateOne({ _id: 'refused' }, { $push: { xs: { $each: [2], $slise: 1 } } } as Document)).rejects.toThrow(/Unrecognized clause in \$push: \$slise/);
    await expect(docs.updateOne({ _id: 'refused' }, { $push: { xs: { $each: [2], $slice: 'x' } } } as Document)).rejects.toThrow(/\$slice/);
    expect(await docs.findOne({ _id: 'refused' })).toEqual({ _id: 'refused', xs: [1] });
  });

  it('refuses a $sort by a field holding an array (the one $push the store does not order as MongoDB would), changing nothing', async () => {
    await docs.insertOne({ _id: 'sort-by-array', xs: [{ t: 2 }] });
    await expect(docs.updateOne({ _id: 'sort-by-array' }, { $push: { xs: { $each: [{ t: [1, 3] }], $sort: { t: 1 } } } })).rejects.toThrow(/holds an array/);
    expect(await docs.findOne({ _id: 'sort-by-array' })).toEqual({ _id: 'sort-by-array', xs: [{ t: 2 }] });
  });

  it('$addToSet with $each adds each value not yet in the array', async () => {
    expect(await after([1, 2], { $addToSet: { xs: { $each: [2, 3, 3] } } })).toEqual([1, 2, 3]);
  });

  it('refuses a clause beside $addToSet\'s $each (MongoDB has none), changing nothing', async () => {
    await docs.insertOne({ _id: 'add-to-set-clause', xs: [1, 2, 3] });
    await expect(docs.updateOne({ _id: 'add-to-set-clause' }, { $addToSet: { xs: { $each: [4], $slice: -2 } } } as Document)).rejects.toThrow(/unexpected fields after \$each in \$addToSet/);
    expect(await docs.findOne({ _id: 'add-to-set-clause' })).toEqual({ _id: 'add-to-set-clause', xs: [1, 2, 3] });
  });

  it('$pull with an operator expression removes each element that satisfies it', async () => {
    expect(await after([1, 6, 3, 9, 5], { $pull: { xs: { $lte: 5 } } })).toEqual([6, 9]);
    expect(await after(['a', 'b', 'c'], { $pull: { xs: { $in: ['a', 'c'] } } })).toEqual(['b']);
  });

  it('$pull with a query on fields removes the documents that match it, whatever their other fields', async () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute));
    const leases = [
      { id: 'a', expires_at: at(1) },
      { id: 'b', expires_at: at(9) },
      { id: 'c', expires_at: at(2) },
    ];
    expect(await after(leases, { $pull: { xs: { expires_at: { $lte: at(2) } } } })).toEqual([{ id: 'b', expires_at: at(9) }]);
    expect(await after(leases, { $pull: { xs: { id: 'c' } } })).toEqual(leases.slice(0, 2));
  });

  it('$pull with a plain value removes every equal element, and counts a pull that removes nothing as not modified', async () => {
    expect(await after(['a', 'b', 'a'], { $pull: { xs: 'a' } })).toEqual(['b']);
    await docs.insertOne({ _id: 'nothing-pulled', xs: [1, 2] });
    const result = await docs.updateOne({ _id: 'nothing-pulled' }, { $pull: { xs: { $gt: 5 } } });
    expect([result.matchedCount, result.modifiedCount]).toEqual([1, 0]);
  });
});

/**
 * An upsert's insert takes every `$setOnInsert` value, null and `[]` included, as MongoDB's does.
 */
/** Any fields: the probes below write what MongoDB accepts, which the driver's typed filters cannot all express. */
type FreeDoc = { _id: string; [field: string]: any };

describe('embedded store: $setOnInsert', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let docs: Collection<FreeDoc>;
  beforeAll(async () => {
    store = await openTestDb('store_set_on_insert');
    docs = store.db.collection('docs');
  });
  afterAll(() => store.close());

  it('sets null, an empty array and other values on insert', async () => {
    await docs.updateOne({ _id: 'new' }, { $inc: { n: 1 }, $setOnInsert: { gone: null, none: [], some: [1], at: 'x' } }, { upsert: true });
    expect(await docs.findOne({ _id: 'new' })).toEqual({ _id: 'new', n: 1, gone: null, none: [], some: [1], at: 'x' });
  });

  it('leaves an existing document as it is', async () => {
    await docs.insertOne({ _id: 'old', n: 1 });
    await docs.updateOne({ _id: 'old' }, { $inc: { n: 1 }, $setOnInsert: { none: [] } }, { upsert: true });
    expect(await docs.findOne({ _id: 'old' })).toEqual({ _id: 'old', n: 2 });
  });
});

/**
 * findAndModify answers through its projection (the driver's `projection` of findOneAndUpdate and findOneAndDelete),
 * as MongoDB's does; a projection it cannot take is refused before anything is written.
 */
describe('embedded store: findAndModify projection', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let docs: Collection<FreeDoc>;
  beforeAll(async () => {
    store = await openTestDb('store_fam_projection');
    docs = store.db.collection('docs');
  });
  afterAll(() => store.close());

  it('findOneAndUpdate answers the fields included, _id unless excluded', async () => {
    await docs.insertOne({ _id: 'inc', a: 1, b: { c: 2, d: 3 }, big: 'x'.repeat(100) });
    expect(await docs.findOneAndUpdate({ _id: 'inc' }, { $inc: { a: 1 } }, { returnDocument: 'after', projection: { a: 1, 'b.c': 1 } })).toEqual({ _id: 'inc', a: 2, b: { c: 2 } });
    expect(await docs.findOneAndUpdate({ _id: 'inc' }, { $inc: { a: 1 } }, { projection: { a: 1, _id: 0 } })).toEqual({ a: 2 });
    expect(await docs.findOne({ _id: 'inc' })).toMatchObject({ a: 3, big: 'x'.repeat(100) });
  });

  it('findOneAndDelete answers the document without the fields excluded, and deletes it whole', async () => {
    await docs.insertOne({ _id: 'exc', a: 1, big: 'x'.repeat(100) });
    expect(await docs.findOneAndDelete({ _id: 'exc' }, { projection: { big: 0 } })).toEqual({ _id: 'exc', a: 1 });
    expect(await docs.findOne({ _id: 'exc' })).toBeNull();
  });

  it('answers null when nothing matched, whatever the projection', async () => {
    expect(await docs.findOneAndDelete({ _id: 'none' }, { projection: { a: 1 } })).toBeNull();
  });

  it('an upsert answers the inserted document through the projection', async () => {
    expect(await docs.findOneAndUpdate({ _id: 'ups' }, { $set: { a: 1, b: 2 } }, { upsert: true, returnDocument: 'after', projection: { b: 1 } })).toEqual({ _id: 'ups', b: 2 });
  });

  it('refuses a projection mixing inclusion and exclusion before writing', async () => {
    await docs.insertOne({ _id: 'mixed', a: 1, b: 1 });
    await expect(docs.findOneAndUpdate({ _id: 'mixed' }, { $inc: { a: 1 } }, { projection: { a: 1, b: 0 } })).rejects.toThrow(/exclusion|inclusion/i);
    expect(await docs.findOne({ _id: 'mixed' })).toEqual({ _id: 'mixed', a: 1, b: 1 });
  });
});

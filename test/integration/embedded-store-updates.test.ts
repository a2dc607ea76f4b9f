import type { Collection, Db } from 'mongodb';
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

import { randomBytes } from 'node:crypto';
import type { MongoClient } from 'mongodb';
import { connectMongo } from '../../src/persistence/mongo';

/** The platform's MongoDB client (src/persistence/mongo.ts), connected to the real embedded store. */
describe('the platform store client', () => {
  const uri = process.env.MONGODB_URI!;
  const dbName = `test_mongo_client_${randomBytes(4).toString('hex')}`;
  const clients: MongoClient[] = [];
  const connect = async (to: string) => {
    const store = await connectMongo(to, dbName);
    clients.push(store.client);
    return store;
  };
  afterAll(async () => {
    await clients[0]?.db(dbName).dropDatabase().catch(() => undefined);
    await Promise.all(clients.map((client) => client.close()));
  });

  it("keeps MongoDB's retryable writes, so a replica set's failover retries a write once", async () => {
    const { client } = await connect(uri);
    expect(client.options.retryWrites).toBe(true);
  });

  it('writes to the embedded store with them on (the driver sends none to a standalone server)', async () => {
    const { db } = await connect(uri);
    const counters = db.collection<{ _id: string; n: number }>('counters');
    await counters.insertOne({ _id: 'a', n: 1 });
    const after = await counters.findOneAndUpdate({ _id: 'a' }, { $inc: { n: 1 } }, { returnDocument: 'after' });
    await counters.updateOne({ _id: 'b' }, { $inc: { n: 5 } }, { upsert: true });
    expect(after).toEqual({ _id: 'a', n: 2 });
    expect(await counters.findOne({ _id: 'b' })).toEqual({ _id: 'b', n: 5 });
  });

  it("leaves the choice to the operator's connection string", async () => {
    const { client } = await connect(`${uri}${uri.includes('?') ? '&' : '?'}retryWrites=false`);
    expect(client.options.retryWrites).toBe(false);
  });
});

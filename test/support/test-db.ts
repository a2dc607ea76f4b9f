import { randomBytes } from 'node:crypto';
import { Db, MongoClient, MongoClientOptions } from 'mongodb';

/**
 * A fresh database on the MongoDB-wire store the global setup started (MONGODB_URI),
 * with a unique name so test files never see each other's records.
 */
export async function openTestDb(label: string, options?: MongoClientOptions): Promise<{ client: MongoClient; db: Db; close: () => Promise<void> }> {
  const uri = process.env.MONGODB_URI;
  if (!uri) throw new Error('MONGODB_URI is not set: integration tests need the global setup (npm test)');
  const client = new MongoClient(uri, options);
  await client.connect();
  const db = client.db(`test_${label.replace(/[^a-z0-9]/gi, '_')}_${randomBytes(4).toString('hex')}`);
  return {
    client,
    db,
    close: async () => {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    },
  };
}

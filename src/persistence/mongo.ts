import { Db, MongoClient, MongoServerError } from 'mongodb';

/** One client per process; the driver pools connections. */
export async function connectMongo(uri: string, dbName: string): Promise<{ client: MongoClient; db: Db }> {
  const client = new MongoClient(uri, {
    // The embedded store serializes writes (SQLite); more connections only lengthen the lock queue.
    maxPoolSize: 20,
    serverSelectionTimeoutMS: 10_000,
    // FerretDB (the embedded store) does not implement retryable writes' transaction numbers on all commands.
    retryWrites: false,
    // Command events let tests and benchmarks count store round trips (README "Store budget").
    monitorCommands: true,
  });
  await client.connect();
  return { client, db: client.db(dbName) };
}

export const DUPLICATE_KEY = 11000;

export function isDuplicateKeyError(err: unknown): boolean {
  return err instanceof MongoServerError && err.code === DUPLICATE_KEY;
}

export async function pingMongo(db: Db): Promise<void> {
  await db.command({ ping: 1 });
}

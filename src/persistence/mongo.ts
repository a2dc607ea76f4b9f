/**
 * src/persistence is the only code that knows the store. What the embedded store (FerretDB 1.24
 * on SQLite) answers from an index: a single-key `{_id: <string>}` equality, nothing else. An
 * integer `_id`, `_id` plus another field, or any other filter or sort is a full scan there; so
 * hot paths (authentication, limits, ingest, each delivery attempt, the event status read) are
 * made of `{_id: <string>}` lookups and unique inserts only, event ids are stored as 16-digit
 * zero-padded strings (string order = numeric order), and listings, which scan there, use the
 * indexes we create on real MongoDB. Its other gaps: no atomic read-modify-write (exactness rests
 * on unique `_id` inserts, unique-sequence.ts) and no TTL indexes (ttl.ts).
 */
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

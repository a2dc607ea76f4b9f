/**
 * src/persistence is the only code that knows the store. The embedded store (FerretDB 1.24 on SQLite) answers from an
 * index only an `_id` (a string, an ObjectId or a non-zero whole number), top-level string equalities and `$in` lists
 * of strings and numbers leading an index, and one string equality with a numeric range on the field it sorts by, with
 * a limit; other ranges and sorts scan. So hot paths use `{_id}` lookups and unique inserts only, and account listings lead with `account_id`.
 */
import { Db, MongoClient, MongoNetworkError, MongoServerError, MongoServerSelectionError, type Collection, type Document, type OptionalUnlessRequiredId } from 'mongodb';

/** One client per process; the driver pools connections. */
export async function connectMongo(uri: string, dbName: string): Promise<{ client: MongoClient; db: Db }> {
  const client = new MongoClient(uri, {
    // The embedded store serializes writes (SQLite); more connections only lengthen the lock queue.
    maxPoolSize: 20,
    serverSelectionTimeoutMS: 10_000,
    // Retryable writes stay on (MongoDB's default): a replica set's failover retries a write once, exactly. The driver
    // sends them only to a replica set or sharded cluster, so the embedded store (standalone) never sees one.
    // Command events let tests and benchmarks count store round trips (docs/delivery.md "Store budget").
    monitorCommands: true,
  });
  await client.connect();
  return { client, db: client.db(dbName) };
}

const DUPLICATE_KEY = 11000;

export function isDuplicateKeyError(err: unknown): boolean {
  return err instanceof MongoServerError && err.code === DUPLICATE_KEY;
}

/**
 * Runs `write`, an insert or an upsert whose filter holds a condition besides the `_id`: its answer, or null when its insert
 * met a document with that `_id` (one that fails the condition, or a concurrent upsert's).
 */
export async function unlessIdTaken<T>(write: () => Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (err) {
    if (isDuplicateKeyError(err)) return null;
    throw err;
  }
}

/**
 * Where uniqueness is the point (an idempotency key, a delivery round, an invite redemption): of concurrent inserts of one
 * `_id` exactly one succeeds, and the others learn it was there first. True when this insert wrote `doc`.
 */
export async function claimOnce<T extends Document>(collection: Collection<T>, doc: OptionalUnlessRequiredId<T>): Promise<boolean> {
  return (await unlessIdTaken(() => collection.insertOne(doc))) !== null;
}

/** The store did not answer (down, restarting, unreachable): a write sent may or may not have been applied. */
export function isStoreUnreachable(err: unknown): boolean {
  if (err instanceof MongoNetworkError || err instanceof MongoServerSelectionError) return true;
  // A command written to a connection the store has just closed fails with the socket's own error, unwrapped by the driver.
  const code = (err as NodeJS.ErrnoException | null | undefined)?.code;
  return code === 'EPIPE' || code === 'ECONNRESET';
}

export async function pingMongo(db: Db): Promise<void> {
  await db.command({ ping: 1 });
}

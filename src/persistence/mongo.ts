/**
 * src/persistence is the only code that knows the store. What the embedded store (FerretDB 1.24
 * on SQLite, as `npm run provision` builds it: src/infra/ferretdb-patches/) answers from an index:
 * `_id` equal to a string, and top-level equalities on string fields that lead one of the indexes
 * we create (e.g. `{account_id}`; test/integration/embedded-store-queries.test.ts). An integer
 * `_id`, ranges, `$in`, and every sort are done by FerretDB after SQLite's answer, over the rows
 * it returned; so hot paths (authentication, limits, ingest, each delivery attempt, the event
 * status read) are made of `{_id: <string>}` lookups and unique inserts only, event ids are stored
 * as 16-digit zero-padded strings (string order = numeric order), and an account's listings lead
 * with `account_id`. Its other gaps: no atomic read-modify-write (exactness rests on unique `_id`
 * inserts, store-primitives/claim.ts) and no TTL indexes (store-primitives/expire-at.ts).
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
    // Command events let tests and benchmarks count store round trips (docs/delivery.md "Store budget").
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

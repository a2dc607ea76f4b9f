import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Collection } from 'mongodb';
import { ferretDbDir } from '../../src/infra/embedded-servers';
import { openTestDb } from '../support/test-db';

const MIB = 1024 * 1024;
/** The store's journal_size_limit (src/infra/embedded-servers.ts): a log SQLite keeps restarting never grows past it. */
const LOG_LIMIT = 16 * MIB;

/**
 * The embedded store's SQLite write-ahead log restarts under a steady load of updates (docs/embedded-store.md): SQLite
 * restarts it only when no read is open on it, and FerretDB's update and findAndModify held their read through their
 * write, so writes back to back grew it by every write (about 8 KB each) until the load paused.
 */
describe('embedded store: write-ahead log under back-to-back writes', () => {
  let store: Awaited<ReturnType<typeof openTestDb>>;
  let docs: Collection<{ _id: string; n: number; pad: string }>;
  beforeAll(async () => {
    store = await openTestDb('store_wal');
    docs = store.db.collection('docs');
    await docs.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: `d${i}`, n: 0, pad: 'x'.repeat(500) })));
  });
  afterAll(() => store.close());

  const logSize = async () => {
    const dataDir = process.env.TEST_DATA_DIR;
    if (!dataDir) throw new Error('TEST_DATA_DIR is not set: this probe reads the embedded store the global setup started');
    return (await stat(path.join(ferretDbDir(dataDir), `${store.db.databaseName}.sqlite-wal`))).size;
  };

  it('4,000 updates and findAndModifys from 4 writers, beside readers, leave the log within its limit', async () => {
    let left = 4_000;
    let writing = true;
    const writer = async () => {
      while (left-- > 0) {
        const _id = `d${left % 50}`;
        if (left % 2) await docs.updateOne({ _id }, { $inc: { n: 1 } });
        else await docs.findOneAndUpdate({ _id }, { $inc: { n: 1 } });
      }
    };
    const reader = async () => {
      for (let i = 0; writing; i++) await docs.findOne({ _id: `d${i % 50}` });
    };
    const readers = [reader(), reader()];
    await Promise.all([writer(), writer(), writer(), writer()]);
    writing = false;
    await Promise.all(readers);

    const counted = await docs.aggregate<{ n: number }>([{ $group: { _id: null, n: { $sum: '$n' } } }]).toArray();
    expect(counted[0]?.n).toBe(4_000);
    expect(await logSize()).toBeLessThanOrEqual(LOG_LIMIT);
  });
});

/**
 * A writer process for the event-id suite (test/integration/event-ids.test.ts): connects to the test store, prints
 * "ready", waits for "go" on stdin, stores `count` events through its own `Events` (`concurrency` at a time, the
 * accounts in turn), prints a JSON line of the ids and numbers it got, in the order it got them (and its pid), and exits.
 * Usage: tsx event-writer.ts '<json: EventWriterJob>'
 */
import { MongoClient } from 'mongodb';
import { Events } from '../../src/persistence/events';

export interface EventWriterJob {
  uri: string;
  db: string;
  name: string;
  accounts: string[];
  count: number;
  concurrency: number;
}

export interface EventWriterResult {
  /** Ids in the order this process took them. */
  ids: number[];
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2]) as EventWriterJob;
  const client = new MongoClient(job.uri);
  await client.connect();
  const events = new Events(client.db(job.db));
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  const ids: number[] = [];
  let next = 0;
  const store = async () => {
    for (let i = next++; i < job.count; i = next++) {
      const now = new Date();
      const account_id = job.accounts[i % job.accounts.length];
      const doc = { account_id, type: 'id.test', data: { i, by: job.name }, timestamp: Math.floor(now.getTime() / 1000), idempotency_key: null, endpoint_ids: [], endpoint_urls: [], created_at: now };
      await events.insertWithNextId(doc, (id) => {
        ids.push(id);
        return JSON.stringify({ id, i });
      });
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, store));
  const result: EventWriterResult = { ids };
  process.stdout.write(`${JSON.stringify({ pid: process.pid, result })}\n`);
  await client.close();
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});

/**
 * A writer process for the store-primitive suites (test/integration/store-primitives/): connects
 * to the test store, prints "ready", waits for "go" on stdin (so that two writers start
 * together), runs `count` operations of one kind, prints a JSON line of what it saw (and its pid,
 * so the suite can check it ran in a process of its own), and exits.
 * Usage: tsx store-primitive-writer.ts '<json: {uri, db, op, scope, count, name}>'
 */
import { MongoClient } from 'mongodb';
import { writerOperations, type WriterJob } from './store-primitive-ops';

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2]) as WriterJob;
  const client = new MongoClient(job.uri, { retryWrites: false });
  await client.connect();
  const db = client.db(job.db);
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  const result = await writerOperations[job.op](db, job);
  process.stdout.write(`${JSON.stringify({ pid: process.pid, result })}\n`);
  await client.close();
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});

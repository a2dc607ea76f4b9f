import { Db, MongoClient } from 'mongodb';

/**
 * The body of a writer process (store-writers.ts starts them): connects to the test store, prints
 * "ready", waits for "go" on stdin (so that two writers start together), runs its job, prints a
 * JSON line of what it saw (and its pid, so the suite can check it ran in a process of its own), and exits.
 */
export function serveWriterJob<J extends { uri: string; db: string }>(run: (db: Db, job: J) => Promise<unknown>): void {
  (async () => {
    const job = JSON.parse(process.argv[2]) as J;
    const client = new MongoClient(job.uri);
    await client.connect();
    process.stdout.write('ready\n');
    await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
    const result = await run(client.db(job.db), job);
    process.stdout.write(`${JSON.stringify({ pid: process.pid, result })}\n`);
    await client.close();
  })().catch((err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  });
}

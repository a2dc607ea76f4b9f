/**
 * `npm run bench:store`: how the embedded store (FerretDB on SQLite) answers many writers at once,
 * as the API processes and the worker write to it under load.
 *
 * STORE_CLIENTS (3) clients, one per process of the separate topology, each with STORE_CONCURRENCY
 * (32) loops that insert a document and upsert another (STORE_WORKLOAD=update: that read one of 100 documents
 * and `$inc` it), for STORE_SECONDS (15 s). SQLite takes one
 * writer at a time, so the throughput is that of one writer whatever the concurrency; what differs
 * is who waits: with writers queued in turn, every write waits about as long as the others.
 * Prints ops/s, the latency of one insert + upsert (p50, p90, p99, max) and the SQLite write-ahead log's size at
 * the end (a log SQLite cannot restart grows by every write while the load lasts), for the provisioned
 * binary and, when STORE_BASELINE_BINARY names another FerretDB build, for that one in the same run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Collection, MongoClient } from 'mongodb';
import { freePort, startFerretDb } from '../src/infra/embedded-servers';
import { walBytes } from './delivery-support';
import { toolPaths } from '../src/infra/tools';

const CLIENTS = Number(process.env.STORE_CLIENTS ?? 3);
const CONCURRENCY = Number(process.env.STORE_CONCURRENCY ?? 32);
const SECONDS = Number(process.env.STORE_SECONDS ?? 15);

type Events = Collection<{ _id: string; account: string; body: string }>;
type Records = Collection<{ _id: string; s: number }>;

/** What one step of a loop does, named as the output prints it. */
const WORKLOADS = {
  insert: {
    name: 'insert+upsert',
    step: async (events: Events, records: Records, n: number, loopIndex: number) => {
      await events.insertOne({ _id: `e${n}`, account: `a${loopIndex % 12}`, body: 'x'.repeat(300) });
      await records.updateOne({ _id: `e${n}` }, { $set: { s: 1 } }, { upsert: true });
    },
  },
  update: {
    name: 'read+update',
    step: async (_events: Events, records: Records, n: number) => {
      await records.findOne({ _id: `r${n % 100}` });
      await records.updateOne({ _id: `r${n % 100}` }, { $inc: { s: 1 } }, { upsert: true });
    },
  },
};
const WORKLOAD = process.env.STORE_WORKLOAD === 'update' ? WORKLOADS.update : WORKLOADS.insert;

async function measure(binary: string): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-store-'));
  process.env.FERRETDB_PATH = binary;
  const ferret = await startFerretDb({ dataDir, port: await freePort() });
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => new MongoClient(ferret.address).connect()));
  try {
    await clients[0].db('bench').collection('events').createIndex({ account: 1 });
    const latencies: number[] = [];
    const end = Date.now() + SECONDS * 1000;
    let next = 0;
    const loop = async (client: MongoClient, loopIndex: number) => {
      const events: Events = client.db('bench').collection('events');
      const records: Records = client.db('bench').collection('records');
      while (Date.now() < end) {
        const started = performance.now();
        await WORKLOAD.step(events, records, next++, loopIndex);
        latencies.push(performance.now() - started);
      }
    };
    await Promise.all(clients.flatMap((client) => Array.from({ length: CONCURRENCY }, (_, i) => loop(client, i))));
    latencies.sort((a, b) => a - b);
    const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(0);
    const log = walBytes(dataDir) / 2 ** 20;
    return `${(latencies.length / SECONDS).toFixed(0)} ${WORKLOAD.name}/s; p50 ${q(0.5)} ms, p90 ${q(0.9)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms; write-ahead log ${log.toFixed(1)} MiB`;
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await ferret.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const binaries = [toolPaths().ferretDb, process.env.STORE_BASELINE_BINARY].filter((b): b is string => !!b);
  process.stdout.write(`[bench] ${CLIENTS} clients × ${CONCURRENCY} writers for ${SECONDS} s, ${os.cpus().length} cores (${os.cpus()[0]?.model})\n`);
  for (const binary of binaries) process.stdout.write(`[bench] ${path.basename(binary)}: ${await measure(binary)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`[bench] ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

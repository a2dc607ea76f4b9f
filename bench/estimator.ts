/**
 * `npm run bench:estimator`: throughput and latency of the cost estimator on this machine.
 *
 * Starts the platform's API role in this process, exactly as `npm start` wires it (catalog
 * synced into the store, every call authenticated and metered in MongoDB), against embedded
 * FerretDB + Temporal on free ports in a temporary DATA_DIR, or against MONGODB_URI /
 * TEMPORAL_ADDRESS when they are set. The load comes from a separate process (autocannon in
 * bench/estimator-load.ts): GET of the full catalog, then POST of a 10-item estimate, each
 * measured for BENCH_DURATION seconds after a BENCH_WARMUP-second warm-up.
 *
 * Why keys of many enterprise accounts: every call is metered (CONTRACT §5), and no single
 * caller may make 3,000 calls a second (anonymous: 30 a minute per IP; enterprise: 3,000 a
 * minute). Spreading requests round-robin over BENCH_ACCOUNTS enterprise accounts keeps all of
 * them under their burst limit, so every request does the full production work (key lookup,
 * burst and usage admission, a block claim in the store every few dozen calls) and none is a cheap 429. Anonymous callers with a new
 * X-Forwarded-For per request would measure the same path plus a new burst window per request,
 * i.e. a caller population that does not exist in practice.
 *
 * For comparison the same routes are also measured without the access guard (a bare app in
 * this process serving the catalog the platform synced): the difference is the cost of
 * authenticating and metering each call in the store.
 *
 * Options (environment): BENCH_ACCOUNTS (default 100: room for 5,000 calls/s), BENCH_CONNECTIONS
 * (default 10), BENCH_WARMUP (s, default 3), BENCH_DURATION (s, default 10).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Catalog } from '../src/domain/cost-estimator';
import { createLogger } from '../src/infra/logger';
import { PROJECT_ROOT } from '../src/infra/tools';
import { CatalogEntries } from '../src/persistence/catalog-entries';
import { AnyRoute, createApp } from '../src/transport/http/app';
import { costEstimatorRoutes } from '../src/transport/http/routes/cost-estimator';
import { startEmbeddedPlatform } from '../scripts/support/embedded-platform';
import type { LoadJob, LoadResult } from './estimator-load';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 3);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);

/** Ten items covering every formula kind: hourly, per GB, flat monthly, per-million blocks, GB-seconds. */
const TEN_ITEMS = {
  items: [
    { provider: 'aws', service: 'Amazon EC2', instance: 'm5.large', quantity: 4 },
    { provider: 'aws', service: 'Amazon S3', instance: 'Standard', quantity: 1, gbPerMonth: 2048 },
    { provider: 'aws', service: 'Amazon RDS for PostgreSQL', instance: 'db.m5.large', quantity: 2, hoursPerMonth: 744 },
    { provider: 'aws', service: 'AWS Lambda', instance: 'Requests', quantity: 30 },
    { provider: 'aws', service: 'AWS Lambda', instance: 'Duration (x86)', quantity: 1_500_000 },
    { provider: 'aws', service: 'Amazon Route 53', quantity: 3 },
    { provider: 'gcp', service: 'Compute Engine', instance: 'e2-standard-4', quantity: 3, hoursPerMonth: 200 },
    { provider: 'gcp', service: 'Cloud Storage', instance: 'Coldline', quantity: 1, gbPerMonth: 10_000 },
    { provider: 'azure', service: 'Azure DNS', quantity: 2 },
    { provider: 'aws', service: 'AWS Data Transfer', instance: 'Internet egress (first 10 TB)', quantity: 1, gbPerMonth: 750 },
  ],
};

async function main(): Promise<void> {
  // MONGODB_URI / TEMPORAL_ADDRESS, when set, replace the embedded servers.
  const given = Object.fromEntries(
    (['MONGODB_URI', 'TEMPORAL_ADDRESS'] as const).flatMap((name) => (process.env[name] ? [[name, process.env[name] as string]] : [])),
  );
  const suffix = randomBytes(4).toString('hex');
  const embedded = await startEmbeddedPlatform({
    roles: { api: true, worker: false },
    logLevel: 'silent',
    env: { ...given, MONGODB_DB: `bench_${suffix}`, TEMPORAL_TASK_QUEUE: `bench-${suffix}` },
  });
  try {
    const { platform } = embedded;
    const keys: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const account = await platform.services.accounts.createAccount(`bench-${suffix}-${i}@example.test`, 'enterprise');
      keys.push((await platform.services.accounts.createKey(account.id, 'sec', 'bench')).key);
    }

    const base = { url: `${embedded.apiUrl}/api/cost-estimator`, keys, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, durationSeconds: DURATION_SECONDS };
    log(`API ${embedded.apiUrl}; ${ACCOUNTS} enterprise accounts; ${CONNECTIONS} connections; ${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s per run`);
    const runs: Array<[string, LoadResult]> = [];
    runs.push(['GET /api/cost-estimator (216 entries)', await load({ ...base, method: 'GET' })]);
    runs.push(['POST /api/cost-estimator (10 items)', await load({ ...base, method: 'POST', body: JSON.stringify(TEN_ITEMS) })]);

    const bare = await startBareApp(await new CatalogEntries(platform.db).loadCatalog());
    try {
      const unmetered = { ...base, url: `${bare.url}/api/cost-estimator` };
      runs.push(['GET, routes only (no access guard)', await load({ ...unmetered, method: 'GET' })]);
      runs.push(['POST, routes only (no access guard)', await load({ ...unmetered, method: 'POST', body: JSON.stringify(TEN_ITEMS) })]);
    } finally {
      bare.server.close();
    }
    report(runs, Object.keys(given).length > 0);
  } finally {
    await embedded.stop();
  }
}

/** The estimator routes on an app with no guards: what the handlers and the HTTP stack alone reach. */
async function startBareApp(catalog: Catalog): Promise<{ server: Server; url: string }> {
  const app = createApp({ logger: createLogger('silent'), routes: costEstimatorRoutes(catalog) as AnyRoute[] });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  server.keepAliveTimeout = 65_000;
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Runs one job in a child process and returns its measured result. */
function load(job: LoadJob): Promise<LoadResult> {
  log(`${job.method} ...`);
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), [path.join(__dirname, 'estimator-load.ts'), JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}') as LoadResult);
    });
  });
}

function report(runs: Array<[string, LoadResult]>, givenServers: boolean): void {
  const cpus = os.cpus();
  const lines = [
    '',
    `Machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`,
    `Servers: ${givenServers ? 'MONGODB_URI / TEMPORAL_ADDRESS' : 'embedded FerretDB (SQLite) + Temporal dev server'}; API, store and load generator share the machine.`,
    `Callers: the x-api-key of ${ACCOUNTS} enterprise accounts, round-robin. Every call is metered, and no one caller may make`,
    '  3,000 calls/s (anonymous: 30/min per IP; enterprise: 3,000/min), so the load is spread over accounts that all stay under',
    '  their burst limit: each request does the full work (key lookup, burst + usage admission from blocks) and none is a cheap 429.',
    `Load: autocannon in a separate process, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s measured per row.`,
    '',
    '| Operation | req/s | p50 ms | p99 ms | max ms | requests | non-2xx | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...runs.map(
      ([name, r]) =>
        `| ${name} | ${r.requestsPerSecond} | ${r.latencyP50Ms} | ${r.latencyP99Ms} | ${r.latencyMaxMs} | ${r.requests} | ${r.non2xx} | ${r.errors + r.timeouts} |`,
    ),
    '',
    'Targets (issue 5): >= 3,000 req/s and p99 <= 20 ms for each.',
    ...runs.slice(0, 2).map(([name, r]) => `  ${name}: ${r.requestsPerSecond >= 3000 && r.latencyP99Ms <= 20 && r.non2xx === 0 ? 'met' : 'NOT met'}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`[bench] ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

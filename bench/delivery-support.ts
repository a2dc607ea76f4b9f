/**
 * Shared parts of the delivery benchmarks: HTTPS receivers, the platform in its own processes (one
 * `npm start`, or API and worker processes apart; started and stopped), accounts, an ingest client
 * and a caller that follows the spec's advice, a warm-up, capacity, CPU and WAL readings, the
 * servers' metrics, the machine line and the script's runner.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { systemClock } from '../src/domain/clock';
import type { Tier } from '../src/domain/limits/tiers';
import { EmbeddedServer, ferretDbDir, freePort, startFerretDb, startTemporalDevServer } from '../src/infra/embedded-servers';
import { provision } from '../src/infra/provision';
import { PROJECT_ROOT } from '../src/infra/tools';
import { Accounts } from '../src/persistence/accounts';
import { ApiKeys } from '../src/persistence/api-keys';
import { connectMongo } from '../src/persistence/mongo';
import { AccountService } from '../src/services/account-service';
import { ownPlatformEnv } from '../test/support/own-platform';
import { ensureTestCertificate } from '../test/support/test-ca';

export const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
export const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
export const ms = (v: number) => `${v.toFixed(1)} ms`;
export const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));

/** The report's `machine:` line: what the figures were measured on, and how busy it was when the run began. */
export function describeMachine(): string {
  return `${os.cpus().length} cores (${os.cpus()[0]?.model}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`;
}

/** Runs a benchmark's `main` as the script: exits 0 when it is done (which also stops a spawned platform), 1 with the error. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}

export interface Receiver {
  url: string;
  /** Event id → arrival times (performance.now()). */
  arrivals: Map<number, number[]>;
  close(): void;
}

/**
 * An HTTPS receiver that records arrivals and answers 200, at once or after `delayMs` (a slow
 * receiver), or never (`hang`: it takes the connection and the request and leaves the sender to
 * its own time-out, as a dead upstream behind a load balancer does).
 */
export async function startReceiver(options: { delayMs?: number; hang?: boolean } = {}): Promise<Receiver> {
  const cert = await ensureTestCertificate(path.join(PROJECT_ROOT, '.data', 'test-ca'));
  const arrivals = new Map<number, number[]>();
  const server = https.createServer({ cert: readFileSync(cert.certFile), key: readFileSync(cert.keyFile) }, (req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      const id = Number(req.headers['x-webhook-id']);
      const list = arrivals.get(id) ?? [];
      list.push(performance.now());
      arrivals.set(id, list);
      if (options.hang) return;
      if (options.delayMs) setTimeout(() => res.writeHead(200).end('ok'), options.delayMs);
      else res.writeHead(200).end('ok');
    });
  });
  server.maxConnections = 10_000;
  // Node's own limit (300 s) would answer a hanging request 408 in the end; the sender gives up first.
  if (options.hang) server.requestTimeout = 0;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    close: () => {
      server.close();
      // Requests left hanging, and idle keep-alive connections, would keep it open.
      server.closeAllConnections();
    },
  };
}

export function testCaFile(): string {
  return path.join(PROJECT_ROOT, '.data', 'test-ca', 'test-ca.pem');
}

/** Everything this benchmark started that must not outlive it, however it ends. */
const atExit: Array<() => void> = [];
function stopAtExit(stop: () => void): void {
  if (atExit.length === 0) {
    process.once('exit', () => {
      for (const s of atExit) s();
    });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  }
  atExit.push(stop);
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

export interface PlatformProcess {
  child: ChildProcess;
  /** The API's base URL; empty for a worker process. */
  apiUrl: string;
  exited: Promise<void>;
}

const READY = /Platform ready/;

/**
 * A platform process with `env`, as the npm scripts run it (`node --import tsx <entry>`: start.ts
 * for `npm start`, api.ts, worker.ts); resolves once it prints "Platform ready". Its stdout (the
 * SDK core's warnings, TMPRL1104 among them, are there) and stderr go to DATA_DIR/platform.log;
 * stderr is shown here too.
 */
export async function spawnPlatform(env: NodeJS.ProcessEnv, entry = 'src/main/start.ts'): Promise<PlatformProcess> {
  // node itself, as `exec node --import tsx` in package.json: the tsx command would relay a SIGTERM
  // and SIGKILL a loaded node that is slow to confirm it, leaving its embedded servers behind.
  // BENCH_CPU_PROF=<dir>: V8 CPU profiles of the platform, written when it stops (Chrome DevTools opens them).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', entry], {
    cwd: PROJECT_ROOT,
    env,
    // Its own process group, so that a crash can be simulated for the whole process and its children.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // Its own process group outlives this process unless stopped with it.
  stopAtExit(() => killGroup(child.pid!));
  let out = '';
  const logFile = env.DATA_DIR ? createWriteStream(path.join(env.DATA_DIR, 'platform.log'), { flags: 'a' }) : undefined;
  child.stdout!.on('data', (d) => {
    if (!READY.test(out)) out += d;
    logFile?.write(d);
  });
  child.stderr!.on('data', (d) => {
    logFile?.write(d);
    process.stderr.write(d);
  });
  while (!READY.test(out)) {
    if (child.exitCode !== null) throw new Error(`${entry} exited:\n${out}`);
    await sleep(100);
  }
  return { child, apiUrl: out.match(/API\s+(http:\/\/\S+)/)?.[1] ?? '', exited };
}

/** SIGTERM, as a user stops `npm start`; resolves once it exited, or after `giveUpAfterMs` when that is given. */
export async function stopPlatform(platform: PlatformProcess | BenchPlatform, giveUpAfterMs?: number): Promise<void> {
  if ('stop' in platform) return platform.stop(giveUpAfterMs);
  platform.child.kill('SIGTERM');
  await (giveUpAfterMs === undefined ? platform.exited : Promise.race([platform.exited, sleep(giveUpAfterMs)]));
}

/** CPU seconds used so far by each process, and when they were read. */
export interface CpuReading {
  /**
   * By process: the platform's (`platform` for `npm start`, without its embedded servers; `api-1`,
   * `api-2`, `worker` apart), `ferretdb`, `temporal`, and `bench`, this benchmark's callers and
   * receivers, which share the machine.
   */
  seconds: Record<string, number>;
  at: number;
}

/**
 * How the platform runs: `combined` is `npm start` (API and worker in one process, which starts
 * its own Temporal dev server and FerretDB); `separate` is what docker-compose.yml runs: API
 * processes and worker processes apart, against one Temporal and one store.
 */
export type Topology = 'combined' | 'separate';

/** The topology asked for by BENCH_TOPOLOGY (default combined). */
export function benchTopology(): Topology {
  const t = process.env.BENCH_TOPOLOGY ?? 'combined';
  if (t !== 'combined' && t !== 'separate') throw new Error(`BENCH_TOPOLOGY must be combined or separate, not ${t}`);
  return t;
}

/** Processes of the separate topology: at least two API processes, so that no caller is served by one alone. */
const SEPARATE_APIS = Number(process.env.BENCH_API_PROCESSES ?? 2);
const SEPARATE_WORKERS = Number(process.env.BENCH_WORKER_PROCESSES ?? 1);

/** Where calls go: one API, or the next of several in turn. */
export type ApiTarget = string | (() => string);
const apiOf = (target: ApiTarget) => (typeof target === 'string' ? target : target());

export interface BenchPlatform {
  topology: Topology;
  /** `npm start`, or which processes run apart. */
  description: string;
  /** The first API process: for set-up calls. */
  apiUrl: string;
  apiUrls: string[];
  /** The API processes in turn (round robin), as a load balancer spreads calls. */
  nextApiUrl: () => string;
  dataDir: string;
  /** The FerretDB in use, where accounts are created. */
  mongoUri: string;
  /** With `metrics`: the Temporal server's Prometheus endpoint. */
  temporalMetricsUrl?: string;
  /** With `metrics`: every platform process's `/metrics`. */
  metricsUrls: string[];
  processes: Array<PlatformProcess & { name: string; logFile: string }>;
  cpu(): CpuReading;
  /** All that the platform processes have written so far (stdout and stderr). */
  logText(): string;
  /** SIGTERM to every platform process, then the servers the harness started; resolves once all exited, or gives up after `giveUpAfterMs` and kills what is left. */
  stop(giveUpAfterMs?: number): Promise<void>;
}

export interface BenchPlatformOptions {
  topology?: Topology;
  /** Serve Prometheus metrics: the Temporal server's, and each platform process's. */
  metrics?: boolean;
}

/**
 * The platform in its own processes with a new DATA_DIR (`dataDirPrefix` under the OS temp dir),
 * every server on free ports, the benchmark's receivers allowed and trusted, and `extraEnv`.
 * `combined` (the default) is one `npm start`; `separate` starts one Temporal dev server and one
 * FerretDB here, then BENCH_API_PROCESSES (2) `npm run api` and BENCH_WORKER_PROCESSES (1)
 * `npm run worker` pointed at them, sharing one SECRETS_ENCRYPTION_KEY.
 */
export async function startBenchPlatform(dataDirPrefix: string, extraEnv: NodeJS.ProcessEnv = {}, options: BenchPlatformOptions = {}): Promise<BenchPlatform> {
  await ensureTestCertificate(path.join(PROJECT_ROOT, '.data', 'test-ca'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), dataDirPrefix));
  const temporalMetricsPort = options.metrics ? await freePort() : undefined;
  const temporalMetricsUrl = temporalMetricsPort === undefined ? undefined : `http://127.0.0.1:${temporalMetricsPort}/metrics`;
  const metricsEnv = async (): Promise<NodeJS.ProcessEnv> => (options.metrics ? { METRICS_PORT: String(await freePort()) } : {});
  const common = { NODE_EXTRA_CA_CERTS: testCaFile(), LOG_LEVEL: 'warn' };
  const withLog = (name: string, p: PlatformProcess, dir: string) => ({ ...p, name, logFile: path.join(dir, 'platform.log') });
  const base = (processes: BenchPlatform['processes']) => ({
    dataDir,
    temporalMetricsUrl,
    processes,
    metricsUrls: [] as string[],
    logText: () => processes.map((p) => readOr(p.logFile, '')).join(''),
  });

  if ((options.topology ?? 'combined') === 'combined') {
    const own = await ownPlatformEnv(dataDir);
    const metrics = await metricsEnv();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...own,
      ...(temporalMetricsPort === undefined ? {} : { EMBEDDED_TEMPORAL_METRICS_PORT: String(temporalMetricsPort) }),
      ...metrics,
      ...extraEnv,
      ...common,
    };
    log('starting the platform (npm start) in its own process...');
    const platform = await spawnPlatform(env);
    // The embedded servers run as processes of their own; the platform's share is counted without them.
    const ferretPid = readPid(path.join(dataDir, 'ferretdb', 'server.pid'));
    const temporalPid = readPid(path.join(dataDir, 'temporal', 'server.pid'));
    const processes = [withLog('platform', platform, dataDir)];
    return {
      ...base(processes),
      topology: 'combined',
      description: 'combined: npm start (API + worker in one process, its own Temporal dev server and FerretDB)',
      apiUrl: platform.apiUrl,
      apiUrls: [platform.apiUrl],
      nextApiUrl: () => platform.apiUrl,
      mongoUri: `mongodb://127.0.0.1:${own.EMBEDDED_MONGO_PORT}/`,
      metricsUrls: metrics.METRICS_PORT ? [`http://127.0.0.1:${metrics.METRICS_PORT}/metrics`] : [],
      cpu: () => ({
        seconds: {
          platform: cpuSeconds(platform.child.pid!, [ferretPid, temporalPid]),
          ferretdb: cpuSeconds(ferretPid),
          temporal: cpuSeconds(temporalPid),
          bench: benchCpuSeconds(),
        },
        at: performance.now(),
      }),
      stop: (giveUpAfterMs) => stopProcesses(processes, giveUpAfterMs),
    };
  }

  log('separate: provisioning and starting one FerretDB and one Temporal dev server...');
  await provision({ need: { temporalCli: true, ferretDb: true, temporalTestServer: false } });
  const servers: EmbeddedServer[] = [];
  const startServer = async (start: () => Promise<EmbeddedServer>) => {
    const server = await start();
    stopAtExit(() => server.kill());
    servers.push(server);
    return server;
  };
  const ferret = await startServer(async () => startFerretDb({ dataDir, port: await freePort() }));
  // With its Web UI, as `npm start` runs it, so that both topologies run the same server.
  const temporal = await startServer(async () =>
    startTemporalDevServer({ dataDir, port: await freePort(), uiPort: await freePort(), metricsPort: temporalMetricsPort }),
  );
  const shared: NodeJS.ProcessEnv = {
    ...process.env,
    MONGODB_URI: ferret.address,
    TEMPORAL_ADDRESS: temporal.address,
    // Every API and worker process must open the same endpoint secrets (compose passes one key to all).
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    // Receivers listen on 127.0.0.1.
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    ...extraEnv,
    ...common,
  };
  const roles = [
    ...Array.from({ length: SEPARATE_APIS }, (_, i) => ({ name: `api-${i + 1}`, entry: 'src/main/api.ts' })),
    ...Array.from({ length: SEPARATE_WORKERS }, (_, i) => ({ name: SEPARATE_WORKERS === 1 ? 'worker' : `worker-${i + 1}`, entry: 'src/main/worker.ts' })),
  ];
  log(`separate: starting ${roles.map((r) => r.name).join(', ')}...`);
  const processes = await Promise.all(
    roles.map(async ({ name, entry }) => {
      // Each process its own DATA_DIR, as each container has its own file system.
      const dir = path.join(dataDir, name);
      await mkdir(dir, { recursive: true });
      const env: NodeJS.ProcessEnv = { ...shared, DATA_DIR: dir, PORT: String(await freePort()), ...(await metricsEnv()) };
      const p = withLog(name, await spawnPlatform(env, entry), dir);
      return { ...p, metricsUrl: env.METRICS_PORT ? `http://127.0.0.1:${env.METRICS_PORT}/metrics` : undefined };
    }),
  );
  const apiUrls = processes.map((p) => p.apiUrl).filter(Boolean);
  let turn = 0;
  return {
    ...base(processes),
    topology: 'separate',
    description: `separate: ${SEPARATE_APIS} × npm run api, ${SEPARATE_WORKERS} × npm run worker, one Temporal dev server and one FerretDB started by the benchmark`,
    apiUrl: apiUrls[0],
    apiUrls,
    nextApiUrl: () => apiUrls[turn++ % apiUrls.length],
    mongoUri: ferret.address,
    metricsUrls: processes.flatMap((p) => (p.metricsUrl ? [p.metricsUrl] : [])),
    cpu: () => ({
      seconds: {
        ...Object.fromEntries(processes.map((p) => [p.name, cpuSeconds(p.child.pid!)])),
        ferretdb: cpuSeconds(ferret.pid()!),
        temporal: cpuSeconds(temporal.pid()!),
        bench: benchCpuSeconds(),
      },
      at: performance.now(),
    }),
    stop: async (giveUpAfterMs) => {
      await stopProcesses(processes, giveUpAfterMs);
      await Promise.all(servers.map((s) => s.stop(5_000)));
    },
  };
}

/** SIGTERM to each, side by side; a process still running after `giveUpAfterMs` is killed with its group. */
async function stopProcesses(processes: PlatformProcess[], giveUpAfterMs?: number): Promise<void> {
  for (const p of processes) p.child.kill('SIGTERM');
  const all = Promise.all(processes.map((p) => p.exited));
  if (giveUpAfterMs === undefined) return void (await all);
  await Promise.race([all, sleep(giveUpAfterMs)]);
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) killGroup(p.child.pid!);
}

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

/** Each process's CPU between two readings, in % of one core: `platform P %, ferretdb F %, temporal T %, bench B %`. */
export function cpuShares(from: CpuReading, to: CpuReading): string {
  const s = (to.at - from.at) / 1000;
  return Object.keys(to.seconds)
    .map((k) => `${k} ${Math.round(((to.seconds[k] - (from.seconds[k] ?? 0)) / s) * 100)} %`)
    .join(', ');
}

/** Enterprise accounts, one `weh` key and one endpoint each (spreads the per-account burst limit); `endpointFields`: more of the endpoint's (its limits). */
export async function createAccounts(mongoUri: string, apiUrl: string, count: number, receiverUrl: string, endpointFields: Record<string, unknown> = {}): Promise<string[]> {
  return createAccountsWith(mongoUri, apiUrl, count, { url: receiverUrl, ...endpointFields });
}

/** `count` enterprise accounts, each with a key and one endpoint registered with `endpoint` (a `destination` rather than a url); returns the keys. */
export async function createAccountsWith(mongoUri: string, apiUrl: string, count: number, endpoint: Record<string, unknown>): Promise<string[]> {
  return withAccounts(mongoUri, async (service) => {
    const keys: string[] = [];
    for (let i = 0; i < count; i++) keys.push(await addAccount(service, apiUrl, 'enterprise', [endpoint]));
    return keys;
  });
}

/** One account of `tier` with a `weh` key and an endpoint (every event type) at each of `endpointUrls`; returns the key. */
export async function createAccount(mongoUri: string, apiUrl: string, tier: Tier, endpointUrls: string[]): Promise<string> {
  return withAccounts(mongoUri, (service) => addAccount(service, apiUrl, tier, endpointUrls.map((url) => ({ url }))));
}

async function withAccounts<T>(mongoUri: string, use: (service: AccountService) => Promise<T>): Promise<T> {
  const { client, db } = await connectMongo(mongoUri, 'platform');
  try {
    return await use(new AccountService({ accounts: new Accounts(db), keys: new ApiKeys(db), clock: systemClock }));
  } finally {
    await client.close();
  }
}

let accountsMade = 0;
/** One account of `tier` with a `weh` key and one endpoint (every event type) registered with each of `endpoints`; returns the key. */
async function addAccount(service: AccountService, apiUrl: string, tier: Tier, endpoints: Array<Record<string, unknown>>): Promise<string> {
  const account = await service.createAccount(`bench-${accountsMade++}-${Date.now()}@example.test`, tier);
  const { key } = await service.createKey(account.id, 'weh', 'bench');
  for (const endpoint of endpoints) {
    const res = await request(`${apiUrl}/api/v1/webhooks/endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(endpoint),
    });
    if (res.statusCode !== 201) throw new Error(`endpoint: ${res.statusCode} ${await res.body.text()}`);
    await res.body.dump();
  }
  return key;
}

export interface IngestOutcome {
  status: number;
  id?: number;
  latencyMs: number;
  retryAfter?: number;
}

export type IngestClient = ReturnType<typeof ingestClient>;

/** One ingest call; network errors and time-outs are status 0. */
export function ingestClient(connections: number) {
  const agent = new Agent({ connections, pipelining: 1 });
  return {
    async ingest(apiUrl: string, key: string, body: unknown, timeoutMs = 120_000): Promise<IngestOutcome> {
      const sent = performance.now();
      try {
        const res = await request(`${apiUrl}/api/v1/webhooks/events`, {
          method: 'POST',
          dispatcher: agent,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await res.body.text();
        const parsed = text ? (JSON.parse(text) as { id?: number }) : {};
        const retryAfter = Number(res.headers['retry-after']);
        return { status: res.statusCode, id: parsed.id, latencyMs: performance.now() - sent, retryAfter: Number.isFinite(retryAfter) ? retryAfter : undefined };
      } catch {
        return { status: 0, latencyMs: performance.now() - sent };
      }
    },
    close: () => agent.close(),
  };
}

/** CPU seconds used so far by this process (not its children: the servers it starts are read apart). */
function benchCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** CPU seconds used so far by a process and its descendants (Linux /proc). */
export function cpuSeconds(rootPid: number, exclude: number[] = []): number {
  const tick = 100;
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      /* gone */
    }
  }
  let total = 0;
  const visit = (pid: number) => {
    if (exclude.includes(pid)) return;
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / tick;
    } catch {
      /* gone */
    }
    for (const c of children.get(pid) ?? []) visit(c);
  };
  visit(rootPid);
  return total;
}

export function readPid(file: string): number {
  try {
    return Number(readFileSync(file, 'utf8').trim());
  } catch {
    return 0;
  }
}

/** Total size of FerretDB's SQLite write-ahead logs under DATA_DIR. */
export function walBytes(dataDir: string): number {
  const dir = ferretDbDir(dataDir);
  let total = 0;
  try {
    for (const f of readdirSync(dir)) if (f.endsWith('-wal')) total += statSync(path.join(dir, f)).size;
  } catch {
    /* not there yet */
  }
  return total;
}

/** Warm-up before measuring (JIT, connection pools, caches): 50 events, then 2 s of quiet. The i-th call uses `keyFor(i)`. */
export async function warmUp(client: IngestClient, api: ApiTarget, keyFor: (i: number) => string): Promise<void> {
  await Promise.all(Array.from({ length: 50 }, (_, i) => client.ingest(apiOf(api), keyFor(i), { type: 'bench.warmup', data: { i } })));
  await sleep(2000);
}

export async function waitFor(check: () => boolean, timeoutMs: number, onTick?: () => void): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let lastTick = Date.now();
  while (!check()) {
    if (Date.now() > deadline) return false;
    if (onTick && Date.now() - lastTick > 10_000) {
      lastTick = Date.now();
      onTick();
    }
    await sleep(50);
  }
  return true;
}

/**
 * How long a closed-loop caller that measures capacity waits after a 503: Retry-After, but at most
 * 1 s. Its 64 callers must keep the platform saturated; the longer waits Retry-After asks for under
 * heavy overload would leave it idle and measure the callers' patience instead. (Callers that follow
 * the advice to the letter are the open-loop offers below.)
 */
export function saturatingWaitMs(retryAfterS: number | undefined): number {
  return Math.min(retryAfterS ?? 1, 1) * 1000;
}

/** A capacity measurement that has not got its events in by then is stopped: its figure would mean nothing. */
const CAPACITY_INGEST_LIMIT_MS = 15 * 60_000;

/**
 * The platform's capacity, measured closed loop: `events` idempotent events, 64 calls at a time, a
 * shed call repeated after Retry-After with the same key; delivered/s from the first ingest to the
 * last arrival at `receiver`. Returns it with the ids delivered.
 */
export async function measureCapacity(
  client: IngestClient,
  api: ApiTarget,
  keys: string[],
  receiver: Pick<Receiver, 'arrivals'>,
  events: number,
  /** Each measurement of a run needs its own keys: a repeated key is answered from its record, not delivered again. */
  keyPrefix = 'capacity',
): Promise<{ perSecond: number; ids: number[] }> {
  log(`capacity: ${events} events, 64 calls at a time...`);
  const ids: number[] = [];
  let issued = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (issued < events) {
        const n = issued++;
        for (;;) {
          const o = await client.ingest(apiOf(api), keys[n % keys.length], { type: 'bench.capacity', data: { n }, idempotency_key: `${keyPrefix}-${n}` });
          if (o.id !== undefined) {
            ids.push(o.id);
            break;
          }
          if (!RETRYABLE.has(o.status)) throw new Error(`capacity: an ingest was answered ${o.status}`);
          if (performance.now() - start > CAPACITY_INGEST_LIMIT_MS) throw new Error(`capacity: ${events - ids.length} events not accepted within ${CAPACITY_INGEST_LIMIT_MS / 60_000} min`);
          await sleep(saturatingWaitMs(o.retryAfter));
        }
      }
    }),
  );
  await waitFor(() => ids.every((id) => receiver.arrivals.has(id)), 20 * 60_000);
  const last = Math.max(...ids.map((id) => receiver.arrivals.get(id)?.[0] ?? 0));
  return { perSecond: ids.length / ((last - start) / 1000), ids };
}

/** Answers a caller repeats: a time-out or network error (0), a limit (429), overload (503). */
const RETRYABLE = new Set([0, 429, 503]);

/**
 * The caller's side of the spec's advice on 429 and 503: wait Retry-After, doubled per retry, plus
 * up to 500 ms of jitter, at most 5 retries, the same idempotency key each time. A call not
 * answered within 10 s is a time-out, retried the same way.
 */
export const ADVICE = { callTimeoutMs: 10_000, maxRetries: 5, jitterMs: 500 };

/** What the platform promises an accepted event (docs/delivery.md#overload): its first POST reaches the receiver within this long at p99. */
export const PROMISED_FIRST_POST_P99_MS = 5_000;

export interface Try {
  sent: number;
  latencyMs: number;
  status: number;
  id?: number;
}

/** One event as its caller saw it: every call (two for a repeated key) and every try of each. */
export interface Sent {
  key: string;
  calls: Try[][];
  /** Send time of the first try that was answered with an id. */
  acceptedAt?: number;
  ids: Set<number>;
}

/** One call following the advice, each try to the next API; no try begins after `lastTryAt`. Returns its tries. */
export async function callWithAdvice(client: IngestClient, api: ApiTarget, apiKey: string, body: unknown, lastTryAt = Infinity): Promise<Try[]> {
  const tries: Try[] = [];
  for (let retry = 0; ; retry++) {
    const sent = performance.now();
    const o = await client.ingest(apiOf(api), apiKey, body, ADVICE.callTimeoutMs);
    tries.push({ sent, latencyMs: o.latencyMs, status: o.status, id: o.id });
    if (o.status === 202 || o.status === 200) return tries;
    if (!RETRYABLE.has(o.status) || retry >= ADVICE.maxRetries) return tries;
    const wait = (o.retryAfter ?? 1) * 1000 * 2 ** retry + Math.random() * ADVICE.jitterMs;
    if (performance.now() + wait > lastTryAt) return tries;
    await sleep(wait);
  }
}

/** One event with its idempotency key, sent by `copies` callers at once. */
export async function sendEvent(client: IngestClient, api: ApiTarget, apiKey: string, body: { type: string; data: object; idempotency_key: string }, copies = 1, lastTryAt = Infinity): Promise<Sent> {
  const calls = await Promise.all(Array.from({ length: copies }, () => callWithAdvice(client, api, apiKey, body, lastTryAt)));
  const answered = calls.flat().filter((t) => t.id !== undefined);
  const acceptedAt = answered.length ? Math.min(...answered.map((t) => t.sent)) : undefined;
  return { key: body.idempotency_key, calls, acceptedAt, ids: new Set(answered.map((t) => t.id!)) };
}

export interface OfferOptions {
  /** The events' type (default `bench.offer`). */
  type?: string;
  /** How many callers send the i-th event at once (default 1). */
  copies?: (i: number) => number;
  /** No try begins after the offer's last send: a sender that stops, rather than one whose retries run on. */
  stopAtEnd?: boolean;
}

/**
 * `rate`/s for `seconds` over `keys` (the i-th event with the i-th key, in turn), open loop: callers
 * do not wait for each other. Resolves with every event once all its calls ended.
 */
export async function offer(
  client: IngestClient,
  api: ApiTarget,
  keys: string[],
  rate: number,
  seconds: number,
  label: string,
  options: OfferOptions = {},
): Promise<{ sent: Sent[]; start: number; end: number }> {
  const pending: Array<Promise<Sent>> = [];
  const start = performance.now();
  const total = Math.round(rate * seconds);
  const lastTryAt = options.stopAtEnd ? start + seconds * 1000 : Infinity;
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    const body = { type: options.type ?? 'bench.offer', data: { n: i }, idempotency_key: `${label}-${i}` };
    pending.push(sendEvent(client, api, keys[i % keys.length], body, options.copies?.(i) ?? 1, lastTryAt));
  }
  const end = performance.now();
  return { sent: await Promise.all(pending), start, end };
}

/** The first arrival of event `id` at any of `receivers`. */
export function firstArrival(receivers: Array<Pick<Receiver, 'arrivals'>>, id: number): number | undefined {
  let first: number | undefined;
  for (const r of receivers) {
    const t = r.arrivals.get(id)?.[0];
    if (t !== undefined && (first === undefined || t < first)) first = t;
  }
  return first;
}

export function arrivalCount(receivers: Array<Pick<Receiver, 'arrivals'>>, id: number): number {
  return receivers.reduce((sum, r) => sum + (r.arrivals.get(id)?.length ?? 0), 0);
}

/** The sum of a metrics page's `name{labels} value` lines whose labels pass `labels`. */
function metricSum(page: string, name: string, labels: (text: string) => boolean): number {
  let total = 0;
  for (const m of page.matchAll(/^(\w+)\{(.*)\} (\S+)$/gm)) {
    if (m[1] === name && labels(m[2])) total += Number(m[3]);
  }
  return total;
}

/**
 * From one reading of the Temporal server's metrics (NaN when it cannot be read): workflow tasks it timed out
 * (`start_to_close_timeout`), and workflow-task dispatches it failed (history's `task_errors` for transfer workflow
 * tasks). Matching gives recording a synchronously matched task's start 1 s (server 1.29, matching_engine.go
 * `recordTaskStartedSyncMatchTimeout`); a store write slower than that can commit the start while the poller never
 * gets the task, and its repeat is dropped as already started: only the task's start-to-close time-out recovers it.
 */
export async function workflowTaskCounts(metricsUrl: string | undefined): Promise<{ timedOut: number; dispatchFailed: number }> {
  const [page] = metricsUrl === undefined ? [] : await metricsPages([metricsUrl]);
  if (page === undefined) return { timedOut: NaN, dispatchFailed: NaN };
  const ofOperation = (operation: string) => (labels: string) => labels.includes(`operation="${operation}"`);
  return {
    timedOut: metricSum(page, 'start_to_close_timeout', ofOperation('TimerActiveTaskWorkflowTaskTimeout')),
    dispatchFailed: metricSum(page, 'task_errors', ofOperation('TransferActiveTaskWorkflowTask')),
  };
}

/** Each answering process's metrics page (one not answering is left out). */
async function metricsPages(metricsUrls: string[]): Promise<string[]> {
  const pages: string[] = [];
  for (const url of metricsUrls) {
    try {
      pages.push(await (await request(url)).body.text());
    } catch {
      /* not answering: left out */
    }
  }
  return pages;
}

/**
 * One of the platform's counters with one label, by label value, summed over the processes' /metrics:
 * refusals by reason (`webhook_ingest_shed_total`), hand-offs by stage (`webhook_attempt_hand_offs_total`).
 */
export async function countsBy(metricsUrls: string[], counter: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const text of await metricsPages(metricsUrls)) {
    for (const m of text.matchAll(new RegExp(`^${counter}\\{\\w+="(\\w+)"\\} (\\S+)$`, 'gm'))) counts[m[1]] = (counts[m[1]] ?? 0) + Number(m[2]);
  }
  return counts;
}

/** The named gauges' current values, summed over the processes (`name v, ...`; absent ones left out): what the progress lines show of admission. */
export async function gaugesLine(metricsUrls: string[], names: string[]): Promise<string> {
  const sums = new Map<string, number>();
  for (const text of await metricsPages(metricsUrls)) {
    for (const name of names) {
      const m = text.match(new RegExp(`^${name} (\\S+)$`, 'm'));
      if (m) sums.set(name, (sums.get(name) ?? 0) + Number(m[1]));
    }
  }
  return [...sums].map(([name, v]) => `${name} ${Number(v.toFixed(3))}`).join(', ');
}

/** What a counter of `countsBy` rose by between two readings: `reason n, ...`. */
export const countsLine = (before: Record<string, number>, after: Record<string, number>) =>
  Object.keys(after)
    .map((k) => `${k} ${after[k] - (before[k] ?? 0)}`)
    .join(', ');

/** `all targets met: name ok, ...` or `n target(s) missed: name MISSED (detail), ...`, for a verdict line. */
export function verdict(checks: Array<[string, boolean, string?]>): string {
  const missed = checks.filter(([, ok]) => !ok);
  const parts = checks.map(([name, ok, detail]) => (ok ? `${name} ok` : `${name} MISSED${detail ? ` (${detail})` : ''}`));
  return `${missed.length === 0 ? 'all targets met' : `${missed.length} target(s) missed`}: ${parts.join(', ')}`;
}

/** Where a delivery's work waits inside Temporal: histograms of the server's metrics, by name and labels. */
const TEMPORAL_WAITS: Array<{ label: string; metric: string; labels: RegExp }> = [
  { label: 'start call', metric: 'service_latency', labels: /service_name="frontend".*operation="StartWorkflowExecution"|operation="StartWorkflowExecution".*service_name="frontend"/ },
  { label: 'transfer queue wait', metric: 'task_latency_queue', labels: /operation="TransferActiveTaskWorkflowTask"/ },
  { label: 'task-queue backlog wait', metric: 'asyncmatch_latency', labels: /task_type="Workflow"/ },
];

/** Sum and count of each of TEMPORAL_WAITS' histograms now (undefined when the metrics cannot be read). */
export async function temporalWaits(metricsUrl: string | undefined): Promise<Record<string, { sum: number; count: number }> | undefined> {
  const [page] = metricsUrl === undefined ? [] : await metricsPages([metricsUrl]);
  if (page === undefined) return undefined;
  const out: Record<string, { sum: number; count: number }> = {};
  for (const w of TEMPORAL_WAITS) {
    const labels = (text: string) => w.labels.test(text);
    out[w.label] = { sum: metricSum(page, `${w.metric}_sum`, labels), count: metricSum(page, `${w.metric}_count`, labels) };
  }
  return out;
}

/** The mean of each wait between two readings of `temporalWaits`, in ms (Temporal reports seconds). */
export function temporalWaitsLine(before: Awaited<ReturnType<typeof temporalWaits>>, after: Awaited<ReturnType<typeof temporalWaits>>): string {
  if (!before || !after) return 'Temporal waits: metrics not read';
  const parts = TEMPORAL_WAITS.map(({ label }) => {
    const count = after[label].count - before[label].count;
    return `${label} ${count > 0 ? `${(((after[label].sum - before[label].sum) / count) * 1000).toFixed(0)} ms (${count})` : 'none'}`;
  });
  return `Temporal waits (means): ${parts.join(', ')}`;
}

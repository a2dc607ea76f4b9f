/** Shared parts of the delivery benchmarks: an HTTPS receiver, the platform in its own process (started and stopped), accounts, an ingest client, a warm-up, CPU and WAL readings, the machine line and the script's runner. */
import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
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

/** An HTTPS receiver that records arrivals and answers 200, at once or after `delayMs` (a slow receiver). */
export async function startReceiver(options: { delayMs?: number } = {}): Promise<Receiver> {
  const cert = await ensureTestCertificate(path.join(PROJECT_ROOT, '.data', 'test-ca'));
  const arrivals = new Map<number, number[]>();
  const server = https.createServer({ cert: readFileSync(cert.certFile), key: readFileSync(cert.keyFile) }, (req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      const id = Number(req.headers['x-webhook-id']);
      const list = arrivals.get(id) ?? [];
      list.push(performance.now());
      arrivals.set(id, list);
      if (options.delayMs) setTimeout(() => res.writeHead(200).end('ok'), options.delayMs);
      else res.writeHead(200).end('ok');
    });
  });
  server.maxConnections = 10_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, arrivals, close: () => server.close() };
}

export function testCaFile(): string {
  return path.join(PROJECT_ROOT, '.data', 'test-ca', 'test-ca.pem');
}

export interface PlatformProcess {
  child: ChildProcess;
  apiUrl: string;
  exited: Promise<void>;
}

/** `tsx src/main/start.ts` (what `npm start` runs) with `env`; resolves once it prints "Platform ready". */
export async function spawnPlatform(env: NodeJS.ProcessEnv): Promise<PlatformProcess> {
  const child = spawn(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), ['src/main/start.ts'], {
    cwd: PROJECT_ROOT,
    env,
    // Its own process group, so that a crash can be simulated for the whole process (tsx and node).
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // Its own process group outlives this process unless stopped with it.
  const stopWithUs = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  process.once('exit', stopWithUs);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  let out = '';
  const logFile = env.DATA_DIR ? createWriteStream(path.join(env.DATA_DIR, 'platform.log'), { flags: 'a' }) : undefined;
  child.stdout!.on('data', (d) => {
    if (!/Platform ready/.test(out)) out += d;
    logFile?.write(d);
  });
  while (!/Platform ready/.test(out)) {
    if (child.exitCode !== null) throw new Error(`platform exited:\n${out}`);
    await sleep(100);
  }
  return { child, apiUrl: (out.match(/API\s+(http:\/\/\S+)/) as RegExpMatchArray)[1], exited };
}

/** SIGTERM, as a user stops `npm start`; resolves once it exited, or after `giveUpAfterMs` when that is given. */
export async function stopPlatform(platform: PlatformProcess, giveUpAfterMs?: number): Promise<void> {
  platform.child.kill('SIGTERM');
  await (giveUpAfterMs === undefined ? platform.exited : Promise.race([platform.exited, sleep(giveUpAfterMs)]));
}

/** CPU seconds used so far by the platform process, FerretDB and the Temporal dev server, and when they were read. */
export interface CpuReading {
  platform: number;
  ferretdb: number;
  temporal: number;
  /** This benchmark process: its callers and receivers, which share the machine. */
  bench: number;
  at: number;
}

export interface BenchPlatform extends PlatformProcess {
  dataDir: string;
  /** The embedded FerretDB, where accounts are created. */
  mongoUri: string;
  cpu(): CpuReading;
}

/**
 * `npm start` in its own process with a new DATA_DIR (`dataDirPrefix` under the OS temp dir), its
 * embedded servers on free ports, the benchmark's receivers allowed and trusted, and `extraEnv`.
 */
export async function startBenchPlatform(dataDirPrefix: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<BenchPlatform> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), dataDirPrefix));
  const own = await ownPlatformEnv(dataDir);
  const env: NodeJS.ProcessEnv = { ...process.env, ...own, ...extraEnv, NODE_EXTRA_CA_CERTS: testCaFile(), LOG_LEVEL: 'warn' };
  log('starting the platform (npm start) in its own process...');
  const platform = await spawnPlatform(env);
  // The embedded servers run as processes of their own; the platform's share is counted without them.
  const ferretPid = readPid(path.join(dataDir, 'ferretdb', 'server.pid'));
  const temporalPid = readPid(path.join(dataDir, 'temporal', 'server.pid'));
  const cpu = () => ({ platform: cpuSeconds(platform.child.pid!, [ferretPid, temporalPid]), ferretdb: cpuSeconds(ferretPid), temporal: cpuSeconds(temporalPid), bench: benchCpuSeconds(), at: performance.now() });
  return { ...platform, dataDir, mongoUri: `mongodb://127.0.0.1:${own.EMBEDDED_MONGO_PORT}/`, cpu };
}

/** Each process's CPU between two readings, in % of one core: `platform P %, ferretdb F %, temporal T %`. */
export function cpuShares(from: CpuReading, to: CpuReading): string {
  const s = (to.at - from.at) / 1000;
  const p = (k: 'platform' | 'ferretdb' | 'temporal' | 'bench') => `${k} ${Math.round(((to[k] - from[k]) / s) * 100)} %`;
  return `${p('platform')}, ${p('ferretdb')}, ${p('temporal')}, ${p('bench')}`;
}

/** Enterprise accounts, one `weh` key and one endpoint each (spreads the per-account burst limit). */
export async function createAccounts(mongoUri: string, apiUrl: string, count: number, receiverUrl: string): Promise<string[]> {
  const { client, db } = await connectMongo(mongoUri, 'platform');
  const service = new AccountService({ accounts: new Accounts(db), keys: new ApiKeys(db) });
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const account = await service.createAccount(`bench-${i}-${Date.now()}@example.test`, 'enterprise');
    const { key } = await service.createKey(account.id, 'weh', 'bench');
    const res = await request(`${apiUrl}/api/v1/webhooks/endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiverUrl }),
    });
    if (res.statusCode !== 201) throw new Error(`endpoint: ${res.statusCode} ${await res.body.text()}`);
    await res.body.dump();
    keys.push(key);
  }
  await client.close();
  return keys;
}

export interface IngestOutcome {
  status: number;
  id?: number;
  latencyMs: number;
  retryAfter?: number;
}

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

/** CPU seconds used so far by a process and its descendants (Linux /proc). */
function benchCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

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
  const dir = path.join(dataDir, 'ferretdb');
  let total = 0;
  try {
    for (const f of readdirSync(dir)) if (f.endsWith('-wal')) total += statSync(path.join(dir, f)).size;
  } catch {
    /* not there yet */
  }
  return total;
}

/** Warm-up before measuring (JIT, connection pools, caches): 50 events, then 2 s of quiet. The i-th call uses `keyFor(i)`. */
export async function warmUp(client: ReturnType<typeof ingestClient>, apiUrl: string, keyFor: (i: number) => string): Promise<void> {
  await Promise.all(Array.from({ length: 50 }, (_, i) => client.ingest(apiUrl, keyFor(i), { type: 'bench.warmup', data: { i } })));
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
 * The platform's capacity, measured closed loop: `events` idempotent events, 64 calls at a time, a
 * shed call repeated after Retry-After with the same key; delivered/s from the first ingest to the
 * last arrival at `receiver`. Returns it with the ids delivered.
 */
/**
 * How long a closed-loop caller that measures capacity waits after a 503: Retry-After, but at most
 * 1 s. Its 64 callers must keep the platform saturated; the longer waits Retry-After asks for under
 * heavy overload would leave it idle and measure the callers' patience instead. (Callers that follow
 * the advice to the letter are bench:overload's open-loop offers.)
 */
export function saturatingWaitMs(retryAfterS: number | undefined): number {
  return Math.min(retryAfterS ?? 1, 1) * 1000;
}

export async function measureCapacity(
  client: ReturnType<typeof ingestClient>,
  apiUrl: string,
  keys: string[],
  receiver: Pick<Receiver, 'arrivals'>,
  events: number,
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
          const o = await client.ingest(apiUrl, keys[n % keys.length], { type: 'bench.capacity', data: { n }, idempotency_key: `capacity-${n}` });
          if (o.id !== undefined) {
            ids.push(o.id);
            break;
          }
          await sleep(saturatingWaitMs(o.retryAfter));
        }
      }
    }),
  );
  await waitFor(() => ids.every((id) => receiver.arrivals.has(id)), 20 * 60_000);
  const last = Math.max(...ids.map((id) => receiver.arrivals.get(id)?.[0] ?? 0));
  return { perSecond: ids.length / ((last - start) / 1000), ids };
}

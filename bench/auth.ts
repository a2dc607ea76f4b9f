/**
 * `npm run bench:auth`: what authentication and metering cost on the embedded stack.
 *
 * Starts the embedded platform (Temporal dev server + FerretDB + the API role) on free ports
 * in a temporary DATA_DIR, creates enterprise accounts with `weh` keys, and drives it with
 * autocannon from a separate process (bench/load-generator.ts), closed loop (each connection
 * sends its next request when the previous one is answered):
 *
 *   1. authenticated GET /api/v1/webhooks/endpoints at 8, 16 and 32 connections: throughput
 *      and latency as concurrency grows;
 *   2. unauthenticated GET /healthz at 32 connections, for comparison;
 *   3. the same pair without handler work, at 16 connections: GET /api/v1/webhooks/<unknown>
 *      (auth + limits + 404) against GET /<unknown> (404 only);
 *   4. during the authenticated list runs, the time the middleware's two steps take inside the
 *      server (KeyAuthenticator.principalOf and the limiter's admitNow, each answered without a
 *      promise when the process decides alone), which is what auth + limits add to a call; not
 *      during the 404 pair, whose ratio is the server's own cost, not that of this timing;
 *   5. CPU per call of the API process and of the load generator in every run (µs of CPU time over
 *      the calls answered: comparable on a machine shared with other work, where calls/s are not);
 *      plus the database commands of one call, and CPU per process.
 *
 * autocannon's fixed-rate mode (overallRate) is not used: it sends each connection's share of a
 * second back to back at the start of the second, so the server sees bursts, not a rate.
 *
 * The per-account burst is 3,000 calls a minute (50/s), so the keys of BENCH_ACCOUNTS accounts
 * (default 100: room for 5,000 calls/s) are used round-robin, every request taking the next
 * key, and no call is refused; any non-2xx is reported. Fewer accounts would mean 429s, many
 * more would mean more key-cache refreshes (each key is re-read every 30 s while the invalidation log is followed, every 0.5 s when not).
 * Options (environment): BENCH_DURATION (s, default 15), BENCH_WARMUP (s, default 5),
 * BENCH_ACCOUNTS (default 100), BENCH_CPU_PROF=<dir> (a V8 CPU profile of the API process over each 404 run,
 * written there: Chrome DevTools opens them).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { accountPolicy } from '../src/domain/limits/policies';
import { TIERS } from '../src/domain/limits/tiers';
import { PROJECT_ROOT } from '../src/infra/tools';
import { startEmbeddedPlatform } from '../scripts/support/embedded-platform';

const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100);
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
const PER_ACCOUNT_PER_SECOND = TIERS.enterprise.burstPerMinute / 60;

interface LoadResult {
  requests: number;
  duration: number;
  rps: number;
  latency: { p50: number; p90: number; p97_5: number; p99: number; max: number; mean: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU time of the load generator over the run (µs). */
  cpuMicros: number;
  statusCodes: Record<string, number>;
}

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

/** Runs autocannon in its own process (tsx bench/load-generator.ts) and returns its summary. */
function load(url: string, pathName: string, keys: string[], options: { duration: number; connections: number }): Promise<LoadResult> {
  const job = { url, path: pathName, keys, connections: options.connections, duration: options.duration, rate: 0 };
  const tsx = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
  return new Promise((resolve, reject) => {
    execFile(tsx, [path.join(__dirname, 'load-generator.ts'), JSON.stringify(job)], { cwd: PROJECT_ROOT, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`load generator failed: ${stderr || err.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as LoadResult);
    });
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn(i);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** CPU seconds used so far by this process (the API) and each embedded server. */
function cpuSeconds(embedded: Array<{ name: string; pid: () => number | undefined }>): Record<string, number> {
  const usage = process.cpuUsage();
  const result: Record<string, number> = { 'API (node)': (usage.user + usage.system) / 1e6 };
  const ticks = 100; // USER_HZ
  for (const server of embedded) {
    try {
      const stat = readFileSync(`/proc/${server.pid()}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      result[server.name] = (Number(fields[11]) + Number(fields[12])) / ticks;
    } catch {
      /* not on Linux */
    }
  }
  return result;
}

/** Records how long every call of `obj[method]` takes while `recording` is on: until it returns, or until its promise settles. */
function timeMethod(obj: object, method: string, samples: number[], recording: () => boolean): void {
  const target = obj as Record<string, (...args: unknown[]) => unknown>;
  const original = target[method].bind(obj);
  target[method] = (...args: unknown[]) => {
    if (!recording()) return original(...args);
    const start = performance.now();
    let answer: unknown;
    try {
      answer = original(...args);
    } finally {
      if (!(answer instanceof Promise)) samples.push(performance.now() - start);
    }
    if (!(answer instanceof Promise)) return answer;
    const done = () => void samples.push(performance.now() - start);
    answer.then(done, done);
    return answer;
  };
}

const ms = (v: number) => `${v.toFixed(v < 1 ? 3 : 2)} ms`;

/** Runs `work` under the V8 profiler of this process (the API's), and writes the profile to PROFILE_DIR/<name>.cpuprofile. */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(path.join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  log('starting the embedded platform (API role) on free ports in a temporary DATA_DIR...');
  const stack = await startEmbeddedPlatform({ roles: { api: true, worker: false }, logLevel: 'warn' });
  const { platform, apiUrl } = stack;
  try {
    const service = platform.services.accounts;
    const makeKeys = async (n: number, label: string) => {
      const keys: string[] = [];
      for (let i = 0; i < n; i++) {
        const account = await service.createAccount(`bench-${label}-${i}-${Date.now()}@example.test`, 'enterprise');
        keys.push((await service.createKey(account.id, 'weh', `bench ${label}`)).key);
      }
      return keys;
    };
    const keys = await makeKeys(ACCOUNTS, 'load');
    log(`${ACCOUNTS} enterprise accounts: burst ${TIERS.enterprise.burstPerMinute}/min each, so up to ${ACCOUNTS * PER_ACCOUNT_PER_SECOND} calls/s round-robin without a 429`);

    // In-process, no load: the middleware's two steps alone.
    const [microKey] = await makeKeys(1, 'micro');
    const authenticator = platform.services.authenticator;
    const principal = await authenticator.authenticate(microKey);
    const policy = accountPolicy(principal.account._id, principal.account.tier);
    const authAlone = await timeEach(2000, async () => authenticator.principalOf(microKey));
    const admitAlone = await timeEach(1500, async () => platform.services.limiter.admitNow(policy));

    // Database commands per call: every repository talks to MongoDB through its `col`; count what they send.
    const [countKey] = await makeKeys(1, 'count');
    const commands = new Map<string, number>();
    let nested = 0;
    for (const [name, repo] of Object.entries(platform.repositories)) {
      const col = (repo as unknown as { col?: Record<string, unknown> }).col;
      if (!col) continue;
      for (const method of ['find', 'findOne', 'findOneAndUpdate', 'insertOne', 'insertMany', 'updateOne', 'deleteOne', 'deleteMany', 'countDocuments']) {
        const original = col[method];
        if (typeof original !== 'function') continue;
        col[method] = function (this: unknown, ...args: unknown[]) {
          // The driver's findOne calls find: one command, counted once.
          if (nested === 0) commands.set(`${name}.${method}`, (commands.get(`${name}.${method}`) ?? 0) + 1);
          nested++;
          try {
            return (original as (...a: unknown[]) => unknown).apply(this, args);
          } finally {
            nested--;
          }
        };
      }
    }
    const listOnce = () => fetch(`${apiUrl}/api/v1/webhooks/endpoints`, { headers: { authorization: `Bearer ${countKey}` } }).then((r) => r.arrayBuffer());
    await listOnce(); // opens the window, loads the key
    commands.clear();
    const COUNTED_CALLS = 100;
    for (let i = 0; i < COUNTED_CALLS; i++) await listOnce();
    const perCall = [...commands]
      .sort()
      .map(([name, n]) => `${name} ${(n / COUNTED_CALLS).toFixed(2)}`)
      .join(', ');

    // Server-side timing of the middleware's two awaits during the load runs.
    let recording = false;
    let authSamples: number[] = [];
    let admitSamples: number[] = [];
    const authSink: number[] = [];
    const admitSink: number[] = [];
    timeMethod(authenticator, 'principalOf', authSink, () => recording);
    timeMethod(platform.services.limiter, 'admitNow', admitSink, () => recording);

    log(`warm-up: ${WARMUP} s authenticated and ${WARMUP} s /healthz`);
    await load(apiUrl, '/api/v1/webhooks/endpoints', keys, { duration: WARMUP, connections: 16 });
    await load(apiUrl, '/healthz', [], { duration: WARMUP, connections: 16 });

    const LIST = 'authenticated GET /api/v1/webhooks/endpoints';
    const AUTH_404 = 'auth + limits + 404: GET /api/v1/webhooks/unknown, 16 connections';
    const BARE_404 = '404 only: GET /unknown, 16 connections';
    const runs: Array<{ title: string; path: string; keys: string[]; connections: number; timed: boolean; profile?: string }> = [
      { title: `${LIST}, 8 connections`, path: '/api/v1/webhooks/endpoints', keys, connections: 8, timed: true },
      { title: `${LIST}, 16 connections`, path: '/api/v1/webhooks/endpoints', keys, connections: 16, timed: true },
      { title: `${LIST}, 32 connections`, path: '/api/v1/webhooks/endpoints', keys, connections: 32, timed: true },
      { title: 'unauthenticated GET /healthz, 32 connections', path: '/healthz', keys: [], connections: 32, timed: false },
      { title: AUTH_404, path: '/api/v1/webhooks/unknown', keys, connections: 16, timed: false, profile: 'auth-404' },
      { title: BARE_404, path: '/unknown', keys: [], connections: 16, timed: false, profile: 'bare-404' },
    ];
    const results: Array<{ title: string; result: LoadResult; cpu: string; apiCpuPerCall: number; storeCommands: number; storeCommandsByName: string; auth?: number[]; admit?: number[] }> = [];
    for (const run of runs) {
      log(`${run.title}: ${DURATION} s`);
      authSink.length = 0;
      admitSink.length = 0;
      recording = run.timed;
      const before = cpuSeconds(platform.embedded);
      const commandsBefore = new Map(commands);
      const drive = () => load(apiUrl, run.path, run.keys, { duration: DURATION, connections: run.connections });
      const result = await (run.profile ? profiled(run.profile, drive) : drive());
      const after = cpuSeconds(platform.embedded);
      const commandsOfRun = [...commands].map(([name, n]) => [name, (n - (commandsBefore.get(name) ?? 0)) / Math.max(1, result.requests)] as const).filter(([, n]) => n > 0);
      const storeCommands = commandsOfRun.reduce((sum, [, n]) => sum + n, 0);
      const storeCommandsByName = commandsOfRun.map(([name, n]) => `${name} ${n.toFixed(3)}`).join(', ');
      recording = false;
      authSamples = [...authSink].sort((a, b) => a - b);
      admitSamples = [...admitSink].sort((a, b) => a - b);
      const cpu = Object.keys(after)
        .filter((name) => name !== 'temporal')
        .map((name) => `${name} ${Math.round(((after[name] - (before[name] ?? 0)) / DURATION) * 100)}%`)
        .join(', ');
      const apiCpuPerCall = ((after['API (node)'] - before['API (node)']) * 1e6) / Math.max(1, result.requests);
      results.push({ title: run.title, result, cpu, apiCpuPerCall, storeCommands, storeCommandsByName, ...(run.timed ? { auth: authSamples, admit: admitSamples } : {}) });
    }

    // Report.
    const memory = `${Math.round(os.totalmem() / 2 ** 30)} GiB`;
    const cpuModel = os.cpus()[0]?.model ?? 'unknown CPU';
    const lines: string[] = [];
    lines.push(`Machine: ${os.cpus().length} cores (${cpuModel}), ${memory} RAM, Node ${process.version}, ${os.platform()} ${os.release()}; load average before the run ${os.loadavg()[0].toFixed(2)}.`);
    lines.push(
      `Stack: embedded FerretDB (SQLite) + Temporal dev server + the API role in one Node process; autocannon in a separate Node process on the same machine, closed loop; ` +
        `${DURATION} s per run after a ${WARMUP} s warm-up; ${ACCOUNTS} enterprise accounts round-robin (≤ ${ACCOUNTS * PER_ACCOUNT_PER_SECOND} calls/s without a 429).`,
    );
    lines.push('');
    lines.push('| Run | req/s | p50 | p90 | p99 | max | non-2xx | errors | auth + limits in the server, p50 / p99 | CPU | CPU per call: API / load generator | store commands per call |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|');
    for (const { title, result: r, cpu, apiCpuPerCall, storeCommands, auth, admit } of results) {
      const codes = Object.entries(r.statusCodes).filter(([c]) => !c.startsWith('2')).map(([c, n]) => `${n}×${c}`).join(' ');
      const inServer = auth && admit ? `${ms(percentile(auth, 50) + percentile(admit, 50))} / ${ms(percentile(auth, 99) + percentile(admit, 99))}` : '–';
      lines.push(
        `| ${title} | ${Math.round(r.rps)} | ${r.latency.p50} ms | ${r.latency.p90} ms | ${r.latency.p99} ms | ${r.latency.max} ms | ${r.non2xx}${codes ? ` (${codes})` : ''} | ${r.errors + r.timeouts} | ${inServer} | ${cpu} | ${Math.round(apiCpuPerCall)} / ${Math.round(r.cpuMicros / Math.max(1, r.requests))} µs | ${storeCommands.toFixed(3)} |`,
      );
    }
    const authed = results.find((run) => run.title === AUTH_404)!;
    const bare = results.find((run) => run.title === BARE_404)!;
    lines.push('');
    lines.push(
      `- Auth + limits + 404 against 404 only: ratio ${(authed.result.rps / bare.result.rps).toFixed(2)} in calls/s; ` +
        `the API's CPU per call ${Math.round(authed.apiCpuPerCall)} against ${Math.round(bare.apiCpuPerCall)} µs (${Math.round(authed.apiCpuPerCall - bare.apiCpuPerCall)} µs more, ratio ${(bare.apiCpuPerCall / authed.apiCpuPerCall).toFixed(2)}).`,
    );
    lines.push(`- Store commands per call of the auth + limits + 404 run: ${authed.storeCommandsByName || 'none'}.`);
    for (const { title, auth, admit } of results) {
      if (!auth || !admit) continue;
      lines.push(`- ${title}: authenticate p50 ${ms(percentile(auth, 50))} / p99 ${ms(percentile(auth, 99))}; admit p50 ${ms(percentile(admit, 50))} / p99 ${ms(percentile(admit, 99))}.`);
    }
    lines.push(`- In-process, no load: authenticate (cached key) p50 ${ms(authAlone.p50)} / p99 ${ms(authAlone.p99)}; admit p50 ${ms(admitAlone.p50)} / p99 ${ms(admitAlone.p99)}.`);
    lines.push(`- Database commands of one authenticated list call (calls one at a time; block claims made in the same tick share one insertMany): ${perCall}.`);
    lines.push('- autocannon reports whole milliseconds; CPU is per process over the run (100% = one core; autocannon uses the rest).');
    process.stdout.write(`\n${lines.join('\n')}\n`);
    log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);

/**
 * `npm run bench:auth`: what authentication and metering cost on the embedded stack.
 *
 * Starts the embedded platform (Temporal dev server + FerretDB + the API role) on free ports
 * in a temporary DATA_DIR, creates enterprise accounts with `weh` keys, and drives it with
 * autocannon from a separate process (bench/load-generator.ts):
 *
 *   1. in-process: the latency of KeyAuthenticator.authenticate and RateLimiter.admit alone,
 *      and the database commands one authenticated call makes (command monitoring);
 *   2. authenticated GET /api/v1/webhooks/endpoints and unauthenticated GET /healthz, each
 *      at full speed (throughput) and at the target rate (latency at 2,000 calls/s);
 *   3. the same pair without any handler work: GET /api/v1/webhooks/<unknown> (auth + limits +
 *      404) against GET /<unknown> (404 only), whose p50 difference is the middleware's cost.
 *
 * The per-account burst is 3,000 calls a minute (50/s), so the keys of BENCH_ACCOUNTS accounts
 * (default 150: room for 7,500 calls/s) are used round-robin and no call is refused; any
 * non-2xx is reported. Options (environment): BENCH_DURATION (s, default 15), BENCH_WARMUP
 * (s, default 5), BENCH_CONNECTIONS (default 32), BENCH_RATE (default 2000), BENCH_ACCOUNTS.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CommandStartedEvent } from 'mongodb';
import { TIERS } from '../src/domain/limits/tiers';
import { PROJECT_ROOT } from '../src/infra/tools';
import { startEmbeddedPlatform } from '../scripts/support/embedded-platform';

const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const RATE = Number(process.env.BENCH_RATE ?? 2000);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 150);
const PER_ACCOUNT_PER_SECOND = TIERS.enterprise.burstPerMinute / 60;

interface LoadResult {
  requests: number;
  duration: number;
  rps: number;
  latency: { p50: number; p90: number; p97_5: number; p99: number; max: number; mean: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

/** Runs autocannon in its own process (tsx bench/load-generator.ts) and returns its summary. */
function load(url: string, pathName: string, keys: string[], options: { duration: number; rate: number; connections?: number }): Promise<LoadResult> {
  const job = { url, path: pathName, keys, connections: options.connections ?? CONNECTIONS, duration: options.duration, rate: options.rate };
  const tsx = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
  return new Promise((resolve, reject) => {
    execFile(tsx, [path.join(__dirname, 'load-generator.ts'), JSON.stringify(job)], { cwd: PROJECT_ROOT, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`load generator failed: ${stderr || err.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as LoadResult);
    });
  });
}

function percentile(sorted: number[], p: number): number {
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

const ms = (v: number) => `${v.toFixed(v < 1 ? 3 : 2)} ms`;

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

    // 1. In-process: the middleware's two steps alone, and the database commands of one call.
    const [microKey] = await makeKeys(1, 'micro');
    const authenticator = platform.services.authenticator;
    const principal = await authenticator.authenticate(microKey);
    const policy = { bucket: `acct:${principal.account._id}`, burstLimit: TIERS.enterprise.burstPerMinute, quotaLimit: TIERS.enterprise.monthlyQuota };
    const authTime = await timeEach(2000, () => authenticator.authenticate(microKey));
    const admitTime = await timeEach(1500, () => platform.services.limiter.admit(policy));

    const [countKey] = await makeKeys(1, 'count');
    const commands = new Map<string, number>();
    const onCommand = (e: CommandStartedEvent) => commands.set(`${e.commandName} ${String(e.command[e.commandName])}`, (commands.get(`${e.commandName} ${String(e.command[e.commandName])}`) ?? 0) + 1);
    await fetch(`${apiUrl}/api/v1/webhooks/endpoints`, { headers: { authorization: `Bearer ${countKey}` } }); // warm the key cache and window
    const monitored = platform.mongo as unknown as { monitorCommands: boolean };
    monitored.monitorCommands = true;
    platform.mongo.on('commandStarted', onCommand);
    const COUNTED_CALLS = 100;
    for (let i = 0; i < COUNTED_CALLS; i++) await fetch(`${apiUrl}/api/v1/webhooks/endpoints`, { headers: { authorization: `Bearer ${countKey}` } }).then((r) => r.arrayBuffer());
    platform.mongo.off('commandStarted', onCommand);
    monitored.monitorCommands = false;
    const perCall = [...commands].map(([name, n]) => `${name}: ${(n / COUNTED_CALLS).toFixed(2)}`).join(', ');

    // 2-3. Load from another process.
    log(`warm-up: ${WARMUP} s authenticated at full speed`);
    await load(apiUrl, '/api/v1/webhooks/endpoints', keys, { duration: WARMUP, rate: 0 });
    await load(apiUrl, '/healthz', [], { duration: WARMUP, rate: 0 });
    const runs: Array<[string, string, string[], number]> = [
      ['authenticated GET /api/v1/webhooks/endpoints, full speed', '/api/v1/webhooks/endpoints', keys, 0],
      ['unauthenticated GET /healthz, full speed', '/healthz', [], 0],
      [`authenticated GET /api/v1/webhooks/endpoints at ${RATE}/s`, '/api/v1/webhooks/endpoints', keys, RATE],
      [`unauthenticated GET /healthz at ${RATE}/s`, '/healthz', [], RATE],
      [`auth + limits + 404: GET /api/v1/webhooks/unknown at ${RATE}/s`, '/api/v1/webhooks/unknown', keys, RATE],
      [`404 only: GET /unknown at ${RATE}/s`, '/unknown', [], RATE],
    ];
    const results: Array<[string, LoadResult]> = [];
    for (const [title, pathName, runKeys, rate] of runs) {
      log(`${title}: ${DURATION} s, ${CONNECTIONS} connections`);
      results.push([title, await load(apiUrl, pathName, runKeys, { duration: DURATION, rate })]);
    }

    // Report.
    const memory = `${Math.round(os.totalmem() / 2 ** 30)} GiB`;
    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    const lines: string[] = [];
    lines.push(`Machine: ${os.cpus().length} cores (${cpu}), ${memory} RAM, Node ${process.version}, ${os.platform()} ${os.release()}.`);
    lines.push(
      `Stack: embedded FerretDB (SQLite) + Temporal dev server + API role in one Node process; autocannon in a separate Node process on the same machine; ` +
        `${CONNECTIONS} connections, ${DURATION} s per run after ${WARMUP} s warm-up; ${ACCOUNTS} enterprise accounts round-robin (≤ ${ACCOUNTS * PER_ACCOUNT_PER_SECOND} calls/s without a 429).`,
    );
    lines.push('');
    lines.push('| Run | req/s | p50 | p90 | p99 | max | non-2xx | errors |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const [title, r] of results) {
      const codes = Object.entries(r.statusCodes).filter(([c]) => !c.startsWith('2')).map(([c, n]) => `${n}×${c}`).join(' ');
      lines.push(`| ${title} | ${Math.round(r.rps)} | ${r.latency.p50} ms | ${r.latency.p90} ms | ${r.latency.p99} ms | ${r.latency.max} ms | ${r.non2xx}${codes ? ` (${codes})` : ''} | ${r.errors + r.timeouts} |`);
    }
    lines.push('');
    const byTitle = Object.fromEntries(results.map(([t, r]) => [t, r]));
    const diff = (a: string, b: string) => byTitle[a].latency.p50 - byTitle[b].latency.p50;
    lines.push(
      `p50 difference at ${RATE}/s: endpoints list vs /healthz ${diff(runs[2][0], runs[3][0]).toFixed(2)} ms (auth + limits + the list query); ` +
        `unknown key-scoped path vs unknown path ${diff(runs[4][0], runs[5][0]).toFixed(2)} ms (auth + limits alone). autocannon reports whole milliseconds.`,
    );
    lines.push(
      `In-process, no load: authenticate (cached key) p50 ${ms(authTime.p50)} / p99 ${ms(authTime.p99)}; ` + `limiter.admit p50 ${ms(admitTime.p50)} / p99 ${ms(admitTime.p99)}.`,
    );
    lines.push(`Database commands per authenticated list call (key cached): ${perCall}.`);
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

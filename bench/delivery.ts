/**
 * `npm run bench:delivery`: end-to-end delivery on the embedded stack (npm start in its own
 * process: API + worker + Temporal dev server + FerretDB), with this process as both the
 * load generator and the HTTPS receiver (answers 200 at once).
 *
 *   (a) latency from ingest (before the POST is sent) to the first attempt received, at a
 *       steady BENCH_RATE events/s (default 50) for BENCH_SECONDS (default 20);
 *   (b)+(c) a burst of BENCH_BURST events (default 10,000) ingested as fast as the API takes
 *       them: time until every one is received, completed deliveries/s, and duplicates.
 *
 * Each account's burst limit is 3,000 calls/min, so events are spread over BENCH_ACCOUNTS
 * enterprise accounts (default 40), each with one endpoint.
 */
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { freePort } from '../src/infra/embedded-servers';
import { PROJECT_ROOT } from '../src/infra/tools';
import { connectMongo } from '../src/persistence/mongo';
import { Accounts } from '../src/persistence/accounts';
import { ApiKeys } from '../src/persistence/api-keys';
import { AccountService } from '../src/services/account-service';
import { ensureTestCertificate } from '../test/support/test-ca';

const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const BURST = Number(process.env.BENCH_BURST ?? 10_000);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 40);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main(): Promise<void> {
  const cert = await ensureTestCertificate(path.join(PROJECT_ROOT, '.data', 'test-ca'));
  const arrivals = new Map<number, number[]>();
  const receiver = https.createServer({ cert: readFileSync(cert.certFile), key: readFileSync(cert.keyFile) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = Number(req.headers['x-webhook-id']);
      const list = arrivals.get(id) ?? [];
      list.push(performance.now());
      arrivals.set(id, list);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-delivery-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    EMBEDDED_MONGO_PORT: String(await freePort()),
    EMBEDDED_TEMPORAL_PORT: String(await freePort()),
    EMBEDDED_TEMPORAL_UI_PORT: String(await freePort()),
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    NODE_EXTRA_CA_CERTS: cert.certFile,
    LOG_LEVEL: 'warn',
  };
  delete env.MONGODB_URI;
  delete env.TEMPORAL_ADDRESS;
  log('starting the embedded platform (npm start) in its own process...');
  const platform = spawn(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), ['src/main/start.ts'], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  platform.stdout.on('data', (d) => (out += d));
  while (!/Platform ready/.test(out)) {
    if (platform.exitCode !== null) throw new Error(`platform exited:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const apiUrl = (out.match(/API\s+(http:\/\/\S+)/) as RegExpMatchArray)[1];
  try {
    const { client, db } = await connectMongo(`mongodb://127.0.0.1:${env.EMBEDDED_MONGO_PORT}/`, 'platform');
    const service = new AccountService(new Accounts(db), new ApiKeys(db));
    const api = new Agent({ connections: CONCURRENCY, pipelining: 1 });
    const call = async (key: string, method: 'GET' | 'POST', p: string, body?: unknown) => {
      const res = await request(`${apiUrl}${p}`, {
        method,
        dispatcher: api,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
    };
    const keys: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const account = await service.createAccount(`bench-${i}@example.test`, 'enterprise');
      const { key } = await service.createKey(account.id, 'weh', 'bench');
      keys.push(key);
      const ep = await call(key, 'POST', '/api/v1/webhooks/endpoints', { url: receiverUrl });
      if (ep.status !== 201) throw new Error(`endpoint: ${ep.status} ${JSON.stringify(ep.body)}`);
    }
    await client.close();
    let next = 0;
    const ingest = async () => {
      const key = keys[next++ % keys.length];
      const sent = performance.now();
      const res = await call(key, 'POST', '/api/v1/webhooks/events', { type: 'bench.event', data: { at: Date.now() } });
      if (res.status !== 202) throw new Error(`ingest: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: res.body.id as number, sent, acked: performance.now() };
    };

    // Warm-up: JIT, connection pools, workflow cache.
    await Promise.all(Array.from({ length: 50 }, ingest));
    await new Promise((r) => setTimeout(r, 2000));

    // (a) steady rate.
    log(`(a) ${RATE} events/s for ${SECONDS} s...`);
    const steady: Array<Promise<{ id: number; sent: number; acked: number }>> = [];
    const start = performance.now();
    for (let i = 0; i < RATE * SECONDS; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      steady.push(ingest());
    }
    const sentSteady = await Promise.all(steady);
    await waitFor(() => sentSteady.every((s) => arrivals.has(s.id)), 60_000);
    const latencies = sentSteady.map((s) => (arrivals.get(s.id) as number[])[0] - s.sent).sort((a, b) => a - b);
    const ackLatencies = sentSteady.map((s) => s.acked - s.sent).sort((a, b) => a - b);
    const steadyLine = `(a) steady ${RATE} events/s for ${SECONDS} s (${sentSteady.length} events): ingest→first attempt received p50 ${pct(latencies, 50).toFixed(1)} ms, p90 ${pct(latencies, 90).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms; ingest 202 p50 ${pct(ackLatencies, 50).toFixed(1)} ms, p99 ${pct(ackLatencies, 99).toFixed(1)} ms`;
    log(steadyLine);

    // (b)+(c) burst.
    log(`(b/c) burst of ${BURST} events with ${CONCURRENCY} concurrent ingests...`);
    const burstIds: number[] = [];
    const burstStart = performance.now();
    let issued = 0;
    const ingestProgress = setInterval(() => log(`  ${burstIds.length} of ${BURST} ingested`), 10_000);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (issued < BURST) {
          issued++;
          burstIds.push((await ingest()).id);
        }
      }),
    );
    clearInterval(ingestProgress);
    const ingestSeconds = (performance.now() - burstStart) / 1000;
    log(`burst ingested in ${ingestSeconds.toFixed(1)} s; waiting for deliveries...`);
    const progress = setInterval(() => log(`  ${burstIds.filter((id) => arrivals.has(id)).length} of ${BURST} received`), 5000);
    await waitFor(() => burstIds.every((id) => arrivals.has(id)), 15 * 60_000).finally(() => clearInterval(progress));
    const lastArrival = Math.max(...burstIds.map((id) => (arrivals.get(id) as number[])[0]));
    const totalSeconds = (lastArrival - burstStart) / 1000;
    await new Promise((r) => setTimeout(r, 3000));
    const duplicates = burstIds.filter((id) => (arrivals.get(id) as number[]).length > 1).length;
    const steadyDuplicates = sentSteady.filter((s) => (arrivals.get(s.id) as number[]).length > 1).length;

    const report = [
      `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
      `${steadyLine}; duplicates ${steadyDuplicates}`,
      `(b) burst: ${BURST} events ingested in ${ingestSeconds.toFixed(1)} s (${(BURST / ingestSeconds).toFixed(0)} ingests/s); all delivered ${totalSeconds.toFixed(1)} s after the first ingest: ${(BURST / totalSeconds).toFixed(0)} completed deliveries/s`,
      `(c) burst: ${burstIds.length} of ${BURST} received, ${BURST - new Set(burstIds.filter((id) => arrivals.has(id))).size} lost, ${duplicates} delivered more than once`,
    ];
    process.stdout.write(`${report.join('\n')}\n`);
    await api.close();
  } finally {
    platform.kill('SIGTERM');
    await new Promise((r) => platform.once('exit', r));
    receiver.close();
  }
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for deliveries');
    await new Promise((r) => setTimeout(r, 50));
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

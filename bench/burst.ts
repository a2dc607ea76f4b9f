/**
 * `npm run bench:burst`: the first-POST promise (docs/delivery.md: within 5 s at p99) for one account's burst to one
 * endpoint right after `npm start` restarts, which bench:overload (many accounts, steady offers) does not cover.
 *
 * Each run: `npm start` on a new DATA_DIR, one enterprise account whose one endpoint is a receiver answering 200 at once
 * (`direct`) or `cli listen --forward-to` that receiver (`listen`: the tour's receiver, a process of its own on the same
 * cores), 20 events to warm up, then `npm start` again on the same DATA_DIR (BURST_RESTART=0: not restarted) and
 * BURST_EVENTS events sent at once, each by a caller that repeats a 503 or 429 with its key after the Retry-After given
 * (half to all of it, until accepted). Measured per event: the 202's arrival → the first POST's arrival at the receiver.
 * Knobs: BURST_EVENTS (600), BURST_RECEIVERS (`direct,listen`), BURST_RUNS (2 of each, alternating), BURST_RESTART (1).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../src/infra/embedded-servers';
import { PROJECT_ROOT } from '../src/infra/tools';
import { connectMongo } from '../src/persistence/mongo';
import { ownPlatformEnv } from '../test/support/own-platform';
import { ensureTestCertificate } from '../test/support/test-ca';
import {
  countsBy,
  createAccountsWith,
  describeMachine,
  firstArrival,
  ingestClient,
  log,
  pct,
  PROMISED_FIRST_POST_P99_MS,
  runBench,
  sleep,
  spawnPlatform,
  startReceiver,
  stopPlatform,
  testCaFile,
  verdict,
  waitFor,
} from './delivery-support';

const EVENTS = Number(process.env.BURST_EVENTS ?? 600);
const RECEIVERS = (process.env.BURST_RECEIVERS ?? 'direct,listen').split(',') as Array<'direct' | 'listen'>;
const RUNS = Number(process.env.BURST_RUNS ?? 2);
const RESTART = process.env.BURST_RESTART !== '0';

/** `cli listen` for the account, forwarding to `forwardTo`; resolves once it prints that it is ready. */
async function cliListen(env: NodeJS.ProcessEnv, accountId: string, forwardTo: string): Promise<ChildProcess> {
  const cli = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'listen', '--account', accountId, '--forward-to', forwardTo], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.once('exit', () => cli.kill('SIGKILL'));
  let ready = false;
  cli.stdout!.on('data', (d: Buffer) => (ready ||= /^Ready/m.test(d.toString())));
  while (!ready) {
    if (cli.exitCode !== null) throw new Error(`cli listen exited with ${cli.exitCode}`);
    await sleep(100);
  }
  return cli;
}

async function run(receiverKind: 'direct' | 'listen'): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-burst-'));
  const env: NodeJS.ProcessEnv = { ...process.env, ...(await ownPlatformEnv(dataDir)), NODE_EXTRA_CA_CERTS: testCaFile(), LOG_LEVEL: 'warn', METRICS_PORT: String(await freePort()) };
  const metrics = [`http://127.0.0.1:${env.METRICS_PORT}/metrics`];
  const receiver = await startReceiver();
  let platform = await spawnPlatform(env);
  const mongoUri = `mongodb://127.0.0.1:${env.EMBEDDED_MONGO_PORT}/`;
  // Through `cli listen`, the account's own endpoint takes no event type of the burst: the listener's endpoint gets them all.
  const [key] = await createAccountsWith(mongoUri, platform.apiUrl, 1, { url: receiver.url, ...(receiverKind === 'listen' ? { events: ['none.*'] } : {}) });
  let listener: ChildProcess | undefined;
  if (receiverKind === 'listen') {
    const { client, db } = await connectMongo(mongoUri, 'platform');
    const account = await db.collection('accounts').findOne({});
    await client.close();
    listener = await cliListen(env, String(account!._id), receiver.url);
  }
  const client = ingestClient(64);
  for (let i = 0; i < 20; i++) await client.ingest(platform.apiUrl, key, { type: 'burst.warm', data: { i } });
  await sleep(3_000);
  if (RESTART) {
    await stopPlatform(platform);
    platform = await spawnPlatform(env);
  }

  const began = performance.now();
  const accepted = new Map<number, number>();
  let refused = 0;
  await Promise.all(
    Array.from({ length: EVENTS }, async (_, i) => {
      const body = { type: 'burst.event', data: { i }, idempotency_key: `burst-${i}` };
      for (;;) {
        const o = await client.ingest(platform.apiUrl, key, body, 30_000);
        if (o.id !== undefined && (o.status === 202 || o.status === 200)) {
          if (!accepted.has(o.id)) accepted.set(o.id, performance.now());
          return;
        }
        refused++;
        await sleep((o.retryAfter ?? 1) * 1000 * (0.5 + Math.random() / 2));
      }
    }),
  );
  const acceptedInS = (performance.now() - began) / 1000;
  await waitFor(() => [...accepted.keys()].every((id) => firstArrival([receiver], id) !== undefined), 300_000);
  const waits = [...accepted].map(([id, at]) => (firstArrival([receiver], id) ?? Infinity) - at);
  const shed = await countsBy(metrics, 'webhook_ingest_shed_total');
  const throttled = await countsBy(metrics, 'webhook_attempts_throttled_total');
  const s = (p: number) => `${(pct(waits, p) / 1000).toFixed(2)} s`;
  process.stdout.write(
    `burst ${receiverKind}${RESTART ? ' after a restart' : ''}: ${EVENTS} events accepted over ${acceptedInS.toFixed(1)} s (${refused} tries refused: ` +
      `${Object.entries(shed).filter(([, n]) => n > 0).map(([r, n]) => `${r} ${n}`).join(', ') || 'none shed'}); attempts throttled ${throttled.places ?? 0}; ` +
      `first POST p50 ${s(50)}, p90 ${s(90)}, p99 ${s(99)}, max ${s(100)}, over 5 s ${waits.filter((w) => w > PROMISED_FIRST_POST_P99_MS).length}; ` +
      `${verdict([[`first POST p99 ≤ ${PROMISED_FIRST_POST_P99_MS / 1000} s (the promise)`, pct(waits, 99) <= PROMISED_FIRST_POST_P99_MS]])}\n`,
  );
  await client.close();
  listener?.kill('SIGINT');
  await stopPlatform(platform);
  receiver.close();
}

runBench(async () => {
  log(`${describeMachine()}; ${RUNS} run(s) of ${RECEIVERS.join(', ')}, alternating`);
  await ensureTestCertificate(path.join(PROJECT_ROOT, '.data', 'test-ca'));
  for (let i = 0; i < RUNS; i++) for (const kind of RECEIVERS) await run(kind);
});

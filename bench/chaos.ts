/**
 * `npm run bench:chaos`: nothing acknowledged is lost when the process running API + worker
 * is killed with SIGKILL in the middle of a run and started again.
 *
 * FerretDB and the Temporal dev server run on their own (as in production, where they are
 * separate services); the platform process (`src/main/start.ts`, API + worker) is killed once
 * CHAOS_KILL_AFTER (40 %) of CHAOS_EVENTS (2,000) idempotent ingests were acknowledged, and
 * restarted CHAOS_RESTART_DELAY_MS (2 s) later on the same port. The client behaves as a careful
 * caller: a call that fails, times out (10 s) or is shed is repeated with the same key.
 * Prints lost (acknowledged, never delivered: must be 0) and duplicate deliveries.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, startFerretDb, startTemporalDevServer } from '../src/infra/embedded-servers';
import { toolPaths } from '../src/infra/tools';
import { createAccounts, ingestClient, log, sleep, spawnPlatform, startReceiver, testCaFile, waitFor } from './delivery-support';

const EVENTS = Number(process.env.CHAOS_EVENTS ?? 2000);
const RATE = Number(process.env.CHAOS_RATE ?? 40);
const KILL_AFTER = Number(process.env.CHAOS_KILL_AFTER ?? 0.4);
const RESTART_DELAY_MS = Number(process.env.CHAOS_RESTART_DELAY_MS ?? 2000);
const ACCOUNTS = 10;

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-chaos-'));
  const tools = toolPaths();
  const mongoPort = await freePort();
  const temporalPort = await freePort();
  const ferret = await startFerretDb({ binary: tools.ferretDb, dataDir, port: mongoPort });
  const temporal = await startTemporalDevServer({ binary: tools.temporalCli, dataDir, port: temporalPort, uiPort: await freePort(), headless: true });
  const receiver = await startReceiver();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    MONGODB_URI: ferret.address,
    TEMPORAL_ADDRESS: temporal.address,
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    NODE_EXTRA_CA_CERTS: testCaFile(),
    LOG_LEVEL: 'warn',
  };
  const client = ingestClient(64);
  let platform = await spawnPlatform({ ...env });
  try {
    const keys = await createAccounts(ferret.address, platform.apiUrl, ACCOUNTS, receiver.url);
    const acked = new Map<number, number>(); // event id → n
    const idsPerKey = new Map<number, Set<number>>();
    let failedCalls = 0;
    let killedAt = 0;
    let restartedAt = 0;

    const send = async (n: number) => {
      for (;;) {
        const o = await client.ingest(platform.apiUrl, keys[n % keys.length], { type: 'chaos.event', data: { n }, idempotency_key: `chaos-${n}` }, 10_000);
        if (o.status === 202 || o.status === 200) {
          acked.set(o.id!, n);
          idsPerKey.set(n, new Set([...(idsPerKey.get(n) ?? []), o.id!]));
          return;
        }
        failedCalls++;
        await sleep(o.retryAfter ? o.retryAfter * 1000 : 500);
      }
    };

    const killer = (async () => {
      await waitFor(() => acked.size >= EVENTS * KILL_AFTER, 10 * 60_000);
      log(`killing the platform process (SIGKILL) after ${acked.size} acknowledged ingests...`);
      killedAt = performance.now();
      process.kill(-platform.child.pid!, 'SIGKILL');
      await platform.exited;
      await sleep(RESTART_DELAY_MS);
      log('starting it again...');
      platform = await spawnPlatform({ ...env });
      restartedAt = performance.now();
      log(`restarted in ${((restartedAt - killedAt) / 1000).toFixed(1)} s`);
    })();

    const start = performance.now();
    const sends: Array<Promise<void>> = [];
    for (let n = 0; n < EVENTS; n++) {
      const wait = start + (n * 1000) / RATE - performance.now();
      if (wait > 0) await sleep(wait);
      sends.push(send(n));
    }
    await Promise.all(sends);
    await killer;
    log(`all ${EVENTS} ingests acknowledged (${failedCalls} calls failed or shed and were repeated); waiting for deliveries...`);
    const allIn = await waitFor(() => [...acked.keys()].every((id) => receiver.arrivals.has(id)), 5 * 60_000, () =>
      log(`  ${[...acked.keys()].filter((id) => receiver.arrivals.has(id)).length} of ${acked.size} delivered`),
    );
    await sleep(3000);
    const lost = [...acked.keys()].filter((id) => !receiver.arrivals.has(id)).length;
    const duplicates = [...acked.keys()].filter((id) => (receiver.arrivals.get(id)?.length ?? 0) > 1).length;
    const keysWithTwoIds = [...idsPerKey.values()].filter((ids) => ids.size > 1).length;
    const unexpected = [...receiver.arrivals.keys()].filter((id) => !acked.has(id)).length;
    process.stdout.write(
      [
        `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
        `chaos: ${EVENTS} idempotent events at ${RATE}/s; platform (API + worker) killed with SIGKILL after ${Math.round(EVENTS * KILL_AFTER)} acknowledged, restarted ${(RESTART_DELAY_MS / 1000).toFixed(0)} s later (back ${((restartedAt - killedAt) / 1000).toFixed(1)} s after the kill)`,
        `calls repeated by the client: ${failedCalls}; keys answered with two ids: ${keysWithTwoIds}; all delivered: ${allIn}`,
        `lost ${lost}, duplicate deliveries ${duplicates}, deliveries of unacknowledged events ${unexpected}`,
      ].join('\n') + '\n',
    );
    if (lost > 0) process.exitCode = 2;
  } finally {
    await client.close();
    platform.child.kill('SIGTERM');
    await platform.exited;
    receiver.close();
    await temporal.stop();
    await ferret.stop();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

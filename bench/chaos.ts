/**
 * `npm run bench:chaos`: nothing acknowledged is lost when processes are killed with SIGKILL in the
 * middle of an overload and started again.
 *
 * First the platform's capacity C is measured (a closed-loop burst of CHAOS_CAPACITY_EVENTS, 1,000),
 * then CHAOS_EVENTS (3,000) idempotent events are offered open loop at CHAOS_RATE (default 2 × C).
 * Once CHAOS_KILL_AFTER (40 %) were acknowledged, SIGKILL goes to:
 *   CHAOS_KILL=platform  the process running API + worker (FerretDB and the Temporal dev server run
 *                        on their own, as in production, where they are separate services);
 *   CHAOS_KILL=group     the whole `npm start` process group, its embedded servers included;
 * and it is started again CHAOS_RESTART_DELAY_MS (2 s) later with the same DATA_DIR and ports. The
 * client is a careful caller: a call that fails, times out (10 s) or is shed is repeated with the
 * same key. Prints lost events (acknowledged, never delivered: must be 0), duplicate deliveries
 * (split into those in flight at the kill, whose first POST reached the receiver before the platform
 * was spawned again and whose second came after, and the rest, which must be 0), keys answered with
 * two ids (must be 0) and deliveries of unacknowledged events.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedServer, freePort, startFerretDb, startTemporalDevServer } from '../src/infra/embedded-servers';
import { createAccounts, ingestClient, log, measureCapacity, sleep, spawnPlatform, startReceiver, testCaFile, waitFor } from './delivery-support';

const EVENTS = Number(process.env.CHAOS_EVENTS ?? 3000);
const CAPACITY_EVENTS = Number(process.env.CHAOS_CAPACITY_EVENTS ?? 1000);
const KILL_AFTER = Number(process.env.CHAOS_KILL_AFTER ?? 0.4);
const RESTART_DELAY_MS = Number(process.env.CHAOS_RESTART_DELAY_MS ?? 2000);
const KILL = process.env.CHAOS_KILL === 'group' ? 'group' : 'platform';
const ACCOUNTS = 10;

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-chaos-'));
  const mongoPort = await freePort();
  const temporalPort = await freePort();
  const servers: EmbeddedServer[] = [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
    NODE_EXTRA_CA_CERTS: testCaFile(),
    LOG_LEVEL: 'warn',
  };
  if (KILL === 'group') {
    // npm start starts them itself, on these ports, and they die with it.
    Object.assign(env, { EMBEDDED_MONGO_PORT: String(mongoPort), EMBEDDED_TEMPORAL_PORT: String(temporalPort), EMBEDDED_TEMPORAL_UI_PORT: String(await freePort()) });
    delete env.MONGODB_URI;
    delete env.TEMPORAL_ADDRESS;
  } else {
    servers.push(await startFerretDb({ dataDir, port: mongoPort }));
    servers.push(await startTemporalDevServer({ dataDir, port: temporalPort, uiPort: await freePort(), headless: true }));
    Object.assign(env, { MONGODB_URI: servers[0].address, TEMPORAL_ADDRESS: servers[1].address });
  }
  const mongoUri = `mongodb://127.0.0.1:${mongoPort}/`;
  const receiver = await startReceiver();
  const client = ingestClient(256);
  let platform = await spawnPlatform({ ...env });
  try {
    const keys = await createAccounts(mongoUri, platform.apiUrl, ACCOUNTS, receiver.url);

    const { perSecond: capacity, ids: capacityIds } = await measureCapacity(client, platform.apiUrl, keys, receiver, CAPACITY_EVENTS);
    const rate = Number(process.env.CHAOS_RATE ?? 2 * capacity);
    log(`capacity C = ${capacity.toFixed(1)}/s; offering ${rate.toFixed(1)}/s`);
    const capacityIdSet = new Set(capacityIds);
    const acked = new Map<number, number>(); // event id → n
    const idsPerKey = new Map<number, Set<number>>();
    let failedCalls = 0;
    let killedAt = 0;
    /** When the new platform process was spawned: until then no process of ours existed to POST. */
    let respawnedAt = 0;
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
      log(`killing ${KILL === 'group' ? 'the whole npm start process group' : 'the platform process'} (SIGKILL) after ${acked.size} acknowledged ingests...`);
      killedAt = performance.now();
      process.kill(-platform.child.pid!, 'SIGKILL');
      await platform.exited;
      await sleep(RESTART_DELAY_MS);
      log('starting it again...');
      respawnedAt = performance.now();
      platform = await spawnPlatform({ ...env });
      restartedAt = performance.now();
      log(`restarted in ${((restartedAt - killedAt) / 1000).toFixed(1)} s`);
    })();

    const start = performance.now();
    const sends: Array<Promise<void>> = [];
    for (let n = 0; n < EVENTS; n++) {
      const wait = start + (n * 1000) / rate - performance.now();
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
    const duplicated = [...acked.keys()].filter((id) => (receiver.arrivals.get(id)?.length ?? 0) > 1);
    // In flight at the kill (at-least-once): made by the killed process and made again by the new one.
    // A POST that reached the receiver before the new process was even spawned was sent by the killed
    // one (its bytes were on the wire; this loaded process read them late). Two POSTs both made by the
    // killed process are a duplicate with no fault behind it, and count as one.
    const killedThenNew = (arrivals: number[]) => arrivals[0] < respawnedAt && arrivals[1] >= respawnedAt;
    const inFlightAtKill = duplicated.filter((id) => killedThenNew(receiver.arrivals.get(id)!)).length;
    const rel = (t: number) => `${((t - killedAt) / 1000).toFixed(2)} s`;
    for (const id of duplicated.filter((d) => !killedThenNew(receiver.arrivals.get(d)!))) {
      log(`  duplicate not explained by the kill: event ${id}, POSTs at ${receiver.arrivals.get(id)!.map(rel).join(', ')} after the kill (respawned at ${rel(respawnedAt)})`);
    }
    const keysWithTwoIds = [...idsPerKey.values()].filter((ids) => ids.size > 1).length;
    const unexpected = [...receiver.arrivals.keys()].filter((id) => !acked.has(id) && !capacityIdSet.has(id)).length;
    process.stdout.write(
      [
        `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
        `chaos: capacity C ${capacity.toFixed(1)}/s; ${EVENTS} idempotent events offered at ${rate.toFixed(1)}/s (${(rate / capacity).toFixed(1)} × C); ${KILL === 'group' ? 'the whole npm start group (API, worker, FerretDB, Temporal)' : 'the platform (API + worker)'} killed with SIGKILL after ${Math.round(EVENTS * KILL_AFTER)} acknowledged, restarted ${(RESTART_DELAY_MS / 1000).toFixed(0)} s later (back ${((restartedAt - killedAt) / 1000).toFixed(1)} s after the kill)`,
        `calls repeated by the client: ${failedCalls}; keys answered with two ids: ${keysWithTwoIds}; all delivered: ${allIn}`,
        `lost ${lost}, duplicate deliveries ${duplicated.length} (first POST made by the killed process, in flight at the kill: ${inFlightAtKill}; others: ${duplicated.length - inFlightAtKill}), deliveries of unacknowledged events ${unexpected}`,
      ].join('\n') + '\n',
    );
    if (lost > 0 || keysWithTwoIds > 0 || duplicated.length > inFlightAtKill) process.exitCode = 2;
  } finally {
    await client.close();
    platform.child.kill('SIGTERM');
    await platform.exited;
    receiver.close();
    for (const server of servers.reverse()) await server.stop();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

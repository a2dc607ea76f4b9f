/**
 * `npm run bench:delivery`: webhook delivery on the embedded stack against the ceiling of its
 * parts, measured in the same run on the same machine.
 *
 *   ceiling  Temporal alone (bench/temporal-ceiling.ts): BENCH_BURST trivial workflows with one
 *            no-op activity, server/worker/client started and wired as `npm start` does (the
 *            outbox's start window included); also 2,000 started at once, and the same workflows
 *            with the no-op as a local activity (as the platform's first attempts are), for reference.
 *   (a)      BENCH_RATE events/s (20) offered for BENCH_SECONDS (60): ingest latency and
 *            ingest → receiver latency, p50 / p99; half the events are of a type with a JSON Schema
 *            in their account's catalog, and the ingest p50 with and without one are reported apart
 *            (bench/steady-phase.ts). BENCH_ONLY=steady runs this phase alone.
 *   (b)      a burst of BENCH_BURST events (10,000) with idempotency keys, BENCH_CONCURRENCY (64)
 *            calls at a time, shed calls retried with the same key: sustained delivered/s, lost, duplicates.
 *   (c)      FerretDB's write-ahead log size and the processes' CPU.
 *   (d)      twice the ceiling offered for BENCH_OVERLOAD_SECONDS (20): slowest answer, accepted
 *            and shed calls, lost.
 *   (e)      what endpoints' own limits cost per delivery against plain ones (bench/endpoint-limits-phase.ts).
 *            BENCH_ONLY=limits runs this phase alone (no ceilings, no a to d).
 *   (f)      what FIFO ordering costs per delivery against plain endpoints (bench/fifo-phase.ts).
 *            BENCH_ONLY=fifo runs this phase alone.
 *   (g)      each broker destination (RabbitMQ, Kafka, SQS; brokers started here as the tests start
 *            them) against HTTPS at 20 events/s: delivered/s, ingest → arrival p50 / p99, lost,
 *            duplicates, CPU per delivery of the platform and of the broker (bench/destinations-phase.ts).
 *            BENCH_ONLY=destinations runs this phase alone.
 *   burst    BENCH_ONLY=burst: the ceiling and (b) only (with BENCH_TRACING, what tracing costs in deliveries/s).
 *   tracing  BENCH_TRACING=absent (default) | off | sampled | on: the platform without OpenTelemetry
 *            loaded, with it loaded and sampling nothing, tracing one event in ten, or every event, to
 *            a local OTLP sink (bench/tracing-switch.ts); the ceilings are Temporal alone either way.
 *            (b) also gives each process's CPU milliseconds per delivery, which a busy machine moves
 *            far less than deliveries/s: compare modes by both.
 *   profile  BENCH_CPU_PROF=<dir>: the platform process writes V8 CPU profiles there (its main
 *            thread and the workflow threads) when it stops.
 *
 * The platform runs as `npm start` in its own process; this process is the load generator and
 * the HTTPS receiver (answers 200 at once). Events are spread over BENCH_ACCOUNTS (40)
 * enterprise accounts so the per-account burst limit never throttles. The last line is
 * `ratio <R> (platform <P>/s, temporal-only <C>/s)`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../src/config/config';
import { PROJECT_ROOT } from '../src/infra/tools';
import { measureDestinations } from './destinations-phase';
import { measureEndpointLimits } from './endpoint-limits-phase';
import { measureFifo } from './fifo-phase';
import { measureSteady } from './steady-phase';
import { tracingSwitch } from './tracing-switch';
import { type BenchPlatform, CpuReading, cpuShares, createAccounts, describeMachine, ingestClient, type IngestClient, IngestOutcome, log, ms, pct, type Receiver, runBench, saturatingWaitMs, sleep, startBenchPlatform, startReceiver, stopPlatform, waitFor, walBytes, warmUp } from './delivery-support';

const BURST = Number(process.env.BENCH_BURST ?? 10_000);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 40);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const OVERLOAD_SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 20);
/** The platform's start window (DISPATCH_START_WINDOW, as the platform reads it). */
const START_WINDOW = loadConfig().dispatchStartWindow;

/** Temporal alone: `workflows` trivial workflows, at most `window` waiting for their activity (0: no limit). */
function measureCeiling(workflows: number, window: number, variant: 'plain' | 'local' = 'plain'): number {
  log(`ceiling: Temporal alone, ${workflows} ${variant} workflows, start window ${window || 'none'} (dev server, worker and client as npm start runs them)...`);
  const run = spawnSync(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx'), ['bench/temporal-ceiling.ts'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CEILING_WORKFLOWS: String(workflows), CEILING_WINDOW: String(window), CEILING_VARIANT: variant },
  });
  if (run.status !== 0) throw new Error(`ceiling run failed (${run.status})`);
  const result = JSON.parse(run.stdout.trim().split('\n').pop() as string) as { workflows: number; seconds: number; perSecond: number };
  log(`ceiling: ${result.workflows} workflows in ${result.seconds.toFixed(1)} s = ${result.perSecond.toFixed(1)}/s`);
  return result.perSecond;
}

/** Each process's CPU milliseconds per delivery between two readings. */
function cpuPerDelivery(from: CpuReading, to: CpuReading, deliveries: number): string {
  return Object.keys(to.seconds)
    .map((k) => `${k} ${(((to.seconds[k] - (from.seconds[k] ?? 0)) * 1000) / Math.max(1, deliveries)).toFixed(1)} ms`)
    .join(', ');
}

/** Phase (a), (e), (f) or (g) alone: the platform, a receiver and that phase's costs. */
async function phaseOnly(measure: (platform: BenchPlatform, client: IngestClient, receiver: Receiver, keys: string[]) => Promise<string[]>): Promise<void> {
  const receiver = await startReceiver();
  const tracing = await tracingSwitch();
  const platform = await startBenchPlatform('bench-delivery-', tracing.env);
  const client = ingestClient(64);
  try {
    const keys = await createAccounts(platform.mongoUri, platform.apiUrl, 4, receiver.url);
    await warmUp(client, platform.apiUrl, (i) => keys[i % keys.length] as string);
    const lines = await measure(platform, client, receiver, keys);
    process.stdout.write(`${[`machine: ${describeMachine()}`, tracing.describe(), ...lines].join('\n')}\n`);
  } finally {
    await client.close();
    await stopPlatform(platform);
    receiver.close();
    await tracing.close();
  }
}

async function main(burstOnly = false): Promise<void> {
  const machine = describeMachine();
  // The ratio's ceiling: as many workflows as the burst, fed as npm start feeds Temporal (its start
  // window). The short run (2,000 started at once, the 0.1 figure) is reported beside it.
  const ceiling = measureCeiling(BURST, START_WINDOW);
  const shortCeiling = burstOnly ? NaN : measureCeiling(2_000, 0);
  // The platform's first attempts are local activities: the same trivial workflow with its no-op as a
  // local activity is reported beside the ratio, so the figure can be read both ways.
  const localCeiling = burstOnly ? NaN : measureCeiling(BURST, START_WINDOW, 'local');

  const receiver = await startReceiver();
  const tracing = await tracingSwitch();
  const platform = await startBenchPlatform('bench-delivery-', tracing.env);
  const { dataDir, cpu } = platform;
  const cpuLine = (from: CpuReading, to: CpuReading) => `CPU (of one core): ${cpuShares(from, to)}`;
  let walMax = 0;
  const walTimer = setInterval(() => (walMax = Math.max(walMax, walBytes(dataDir))), 1000);
  const client = ingestClient(CONCURRENCY * 2);
  const report: string[] = [
    `machine: ${machine}`,
    `ceiling (Temporal alone, same binaries and wiring, ${BURST} workflows, start window ${START_WINDOW}): ${ceiling.toFixed(1)} workflows/s`,
    ...(burstOnly
      ? []
      : [
          `short ceiling (2,000 workflows started at once, no window): ${shortCeiling.toFixed(1)} workflows/s`,
          `local-activity ceiling (the same ${BURST} workflows with the no-op as a local activity, as the platform's first attempts are): ${localCeiling.toFixed(1)} workflows/s`,
        ]),
  ];
  try {
    const keys = await createAccounts(platform.mongoUri, platform.apiUrl, ACCOUNTS, receiver.url);
    let next = 0;
    const nextKey = () => keys[next++ % keys.length];

    await warmUp(client, platform.apiUrl, nextKey);

    // (a) steady offer, half of it checked against a schema.
    if (!burstOnly) report.push(...(await measureSteady(platform, client, receiver, keys)));

    // (b) burst with idempotency keys; shed or unanswered calls are repeated with the same key.
    log(`(b) burst of ${BURST} events, ${CONCURRENCY} calls at a time...`);
    const burstCpu = cpu();
    const acked = new Map<number, number>();
    let shed = 0;
    let issued = 0;
    const burstStart = performance.now();
    const progress = setInterval(() => log(`  ${acked.size} of ${BURST} accepted, ${[...acked.keys()].filter((id) => receiver.arrivals.has(id)).length} delivered, WAL ${(walBytes(dataDir) / 2 ** 20).toFixed(1)} MiB`), 10_000);
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (issued < BURST) {
          const n = issued++;
          const key = keys[n % keys.length];
          for (;;) {
            const o = await client.ingest(platform.apiUrl, key, { type: 'bench.burst', data: { n }, idempotency_key: `burst-${n}` });
            if (o.status === 202 || o.status === 200) {
              acked.set(o.id!, n);
              break;
            }
            shed++;
            await sleep(saturatingWaitMs(o.retryAfter));
          }
        }
      }),
    );
    const ingestSeconds = (performance.now() - burstStart) / 1000;
    log(`burst accepted in ${ingestSeconds.toFixed(1)} s (${shed} calls shed and repeated); waiting for deliveries...`);
    await waitFor(() => [...acked.keys()].every((id) => receiver.arrivals.has(id)), 30 * 60_000);
    clearInterval(progress);
    const burstIds = [...acked.keys()];
    const arrivedIds = burstIds.filter((id) => receiver.arrivals.has(id));
    const lastArrival = Math.max(...arrivedIds.map((id) => receiver.arrivals.get(id)![0]));
    const deliveredPerSecond = arrivedIds.length / ((lastArrival - burstStart) / 1000);
    const burstCpuEnd = cpu();
    const burstCpuLine = `${cpuLine(burstCpu, burstCpuEnd)}; CPU per delivery: ${cpuPerDelivery(burstCpu, burstCpuEnd, arrivedIds.length)}`;
    await sleep(3000);
    const duplicates = burstIds.filter((id) => receiver.arrivals.get(id)!.length > 1).length;
    const lineB = `(b) burst: ${BURST} events accepted in ${ingestSeconds.toFixed(1)} s (${shed} calls shed with 503 and repeated); ${arrivedIds.length} delivered at ${deliveredPerSecond.toFixed(1)}/s sustained (first ingest to last arrival); lost ${burstIds.length - arrivedIds.length}; duplicates ${duplicates}; ${burstCpuLine}`;
    log(lineB);
    report.push(lineB);

    if (!burstOnly) {
      // (d) twice the ceiling.
      const overRate = Math.max(1, Math.round(2 * ceiling));
      log(`(d) ${overRate}/s offered (twice the ceiling) for ${OVERLOAD_SECONDS} s...`);
      const over: Array<Promise<IngestOutcome>> = [];
      const overStart = performance.now();
      for (let i = 0; i < overRate * OVERLOAD_SECONDS; i++) {
        const wait = overStart + (i * 1000) / overRate - performance.now();
        if (wait > 0) await sleep(wait);
        over.push(client.ingest(platform.apiUrl, nextKey(), { type: 'bench.overload', data: { i } }, 30_000));
      }
      const overDone = await Promise.all(over);
      const overAccepted = overDone.filter((o) => o.status === 202);
      const overShed = overDone.filter((o) => o.status === 503).length;
      const overOther = overDone.length - overAccepted.length - overShed;
      const overLat = overDone.map((o) => o.latencyMs);
      await waitFor(() => overAccepted.every((o) => receiver.arrivals.has(o.id!)), 30 * 60_000);
      const overLost = overAccepted.filter((o) => !receiver.arrivals.has(o.id!)).length;
      const lineD = `(d) ${overRate}/s offered for ${OVERLOAD_SECONDS} s (${overDone.length} calls): ${overAccepted.length} accepted, ${overShed} shed (503), ${overOther} other; answered within 1 s: ${overDone.filter((o) => o.latencyMs <= 1000 && o.status !== 0).length} of ${overDone.length}; slowest answer ${ms(Math.max(...overLat))}, p99 ${ms(pct(overLat, 99))}; lost ${overLost}`;
      log(lineD);
      report.push(lineD);

      // (e) endpoints' own limits, on the same platform, now idle again.
      report.push(...(await measureEndpointLimits(platform, client, receiver)));
      // (f) FIFO endpoints, the same way.
      report.push(...(await measureFifo(platform, client, receiver)));
      // (g) broker destinations against HTTPS, the same way.
      report.push(...(await measureDestinations(platform, client, receiver)));

      clearInterval(walTimer);
      walMax = Math.max(walMax, walBytes(dataDir));
      report.push(`(c) FerretDB WAL: largest ${(walMax / 2 ** 20).toFixed(1)} MiB, at the end ${(walBytes(dataDir) / 2 ** 20).toFixed(1)} MiB`);
      report.push(`against the short ceiling: ${(deliveredPerSecond / shortCeiling).toFixed(2)}; against the local-activity ceiling: ${(deliveredPerSecond / localCeiling).toFixed(2)}`);
    }
    report.push(tracing.describe());
    report.push(`ratio ${(deliveredPerSecond / ceiling).toFixed(2)} (platform ${deliveredPerSecond.toFixed(1)}/s, temporal-only ${ceiling.toFixed(1)}/s)`);
    process.stdout.write(`${report.join('\n')}\n`);
  } finally {
    clearInterval(walTimer);
    await client.close();
    await stopPlatform(platform);
    receiver.close();
    await tracing.close();
  }
}

const ONLY = { steady: measureSteady, limits: measureEndpointLimits, fifo: measureFifo, destinations: measureDestinations } as const;
const only = process.env.BENCH_ONLY;
runBench(only === 'burst' ? () => main(true) : only && only in ONLY ? () => phaseOnly(ONLY[only as keyof typeof ONLY]) : () => main());

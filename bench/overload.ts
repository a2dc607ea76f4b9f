/**
 * `npm run bench:overload`: the platform held at one to three times its own capacity, for minutes,
 * by callers that behave like real senders (open loop: they do not wait for each other).
 *
 *   capacity  C: a closed-loop burst of OVERLOAD_CAPACITY_EVENTS (2,000) idempotent events, 64 calls
 *             at a time, shed calls repeated: delivered/s from the first ingest to the last arrival;
 *             measured before the first offer and after each: an offer is factor × the C before it,
 *             judged against the mean of the C before and the C after it.
 *   offers    OVERLOAD_RATES (1, 1.5, 2, 3) × C, each for OVERLOAD_SECONDS (120 s), over
 *             OVERLOAD_ACCOUNTS (12) accounts with one HTTPS endpoint each. Every event has an
 *             idempotency key and half of them are sent twice at once. A caller follows the spec's
 *             advice on 429 and 503 (wait Retry-After, doubled per try, plus up to 500 ms of jitter,
 *             at most 5 retries); a call not answered within 10 s is a time-out, retried the same way.
 *   slow      100 endpoints that answer after 25 s and 20 fast ones, events at 0.5 × C over all
 *             of them, against the same offer with those 100 answering at once (equal load, only
 *             the receivers' speed differs); the fast endpoints' ingest → receiver p99 is compared.
 *
 * BENCH_TOPOLOGY=separate runs it against API and worker processes apart (two `npm run api`, one
 * `npm run worker`, one Temporal dev server and one FerretDB, as docker-compose.yml runs them), the
 * calls spread over the API processes in turn; the default, combined, is one `npm start`.
 *
 * For each offer it prints goodput (distinct events first delivered per second during the offer),
 * the first try's answer time, the share shed, ingest → receiver, duplicates, lost events, keys
 * answered with two ids, the drain after the offer, CPU per process and the workflow tasks that
 * timed out (from the Temporal server's own metrics). The last line is
 * `overload goodput G (capacity C/s, worst rate X)`, G the lowest goodput / C over the offers, C the
 * mean of the two measured around that offer.
 */
import { ADVICE, arrivalCount, benchTopology, CpuReading, countsBy, countsLine, cpuShares, gaugesLine, createAccounts, describeMachine, firstArrival, ingestClient, log, measureCapacity, ms, offer as offerFrom, pct, PROMISED_FIRST_POST_P99_MS, runBench, Sent, sleep, startBenchPlatform, startReceiver, stopPlatform, verdict, waitFor, warmUp, workflowTaskCounts } from './delivery-support';

const ACCOUNTS = Number(process.env.OVERLOAD_ACCOUNTS ?? 12);
const CAPACITY_EVENTS = Number(process.env.OVERLOAD_CAPACITY_EVENTS ?? 2000);
const SECONDS = Number(process.env.OVERLOAD_SECONDS ?? 120);
const RATES = (process.env.OVERLOAD_RATES ?? '1,1.5,2,3').split(',').map(Number);
const PHASES = new Set((process.env.OVERLOAD_PHASES ?? 'offers,slow').split(','));
const SLOW_ENDPOINTS = Number(process.env.OVERLOAD_SLOW_ENDPOINTS ?? 100);
const FAST_ENDPOINTS = Number(process.env.OVERLOAD_FAST_ENDPOINTS ?? 20);
const SLOW_DELAY_MS = Number(process.env.OVERLOAD_SLOW_DELAY_MS ?? 25_000);
/**
 * 300 s puts about 570 events on the fast endpoints in each phase. With 180 s (about 350) three late
 * events made a p99, and the ratio swung from 0.9× to 2.7× between runs (BENCHMARKS.md).
 */
const SLOW_SECONDS = Number(process.env.OVERLOAD_SLOW_SECONDS ?? 300);
/** The issue's targets for every offer at or above capacity. */
const TARGETS = { goodput: 0.8, firstTryP99Ms: 1_000, drain: 0.8, probeMs: 2_000 };
/** The drain rate is judged only on a backlog worth at least this many seconds of capacity. */
const DRAIN_MIN_BACKLOG_S = 1;

const client = ingestClient(4096);

/** Half of the events are sent twice at once, with the same key. */
const offer = (api: () => string, keys: string[], rate: number, seconds: number, label: string) =>
  offerFrom(client, api, keys, rate, seconds, label, { type: 'bench.overload', copies: (i) => (i % 2 === 0 ? 2 : 1) });

const SHED = 'webhook_ingest_shed_total';
const HAND_OFFS = 'webhook_attempt_hand_offs_total';
const THROTTLES = 'webhook_attempts_throttled_total';
/** Shown every 5 s of an offer: what admission and the start window see. */
const ADMISSION_GAUGES = ['webhook_start_window_size', 'webhook_outbox_oldest_wait_seconds', 'platform_event_loop_delay_p99_seconds', 'webhook_first_attempts_held'];

async function main(): Promise<void> {
  const machine = describeMachine();
  const fast = await startReceiver();
  const platform = await startBenchPlatform('bench-overload-', {}, { topology: benchTopology(), metrics: true });
  const { cpu, mongoUri, temporalMetricsUrl: temporalMetrics, metricsUrls: platformMetrics } = platform;
  // Calls go to the API processes in turn, as a load balancer sends them.
  const api = platform.nextApiUrl;
  const cpuLine = (from: CpuReading, to: CpuReading) => `CPU (of one core) ${cpuShares(from, to)}`;
  const report: string[] = [`machine: ${machine}`, `topology: ${platform.description}`];
  try {
    const keys = await createAccounts(mongoUri, platform.apiUrl, ACCOUNTS, fast.url);
    await warmUp(client, api, (i) => keys[i % keys.length]);

    const measureC = async (label: string) => {
      const { perSecond, ids } = await measureCapacity(client, api, keys, fast, CAPACITY_EVENTS, label);
      const capLine = `capacity C: ${ids.length} events delivered at ${perSecond.toFixed(1)}/s (closed loop, first ingest to last arrival)`;
      log(capLine);
      report.push(capLine);
      await sleep(3000);
      return perSecond;
    };
    const firstCapacity = await measureC('capacity');

    const goodputs: Array<{ rate: number; g: number; capacity: number }> = [];
    if (PHASES.has('offers')) {
      // This VM's speed drifts by a third within minutes (BENCHMARKS.md): an offer is judged against C measured just
      // before and just after it, the machine's speed during it as near as a burst can tell, not against one C from
      // ten minutes earlier.
      let before = firstCapacity;
      for (const [i, factor] of RATES.entries()) {
        const rate = factor * before;
        log(`offer ${factor}× C = ${rate.toFixed(1)} events/s for ${SECONDS} s...`);
        const tasksBefore = await workflowTaskCounts(temporalMetrics);
        const shedBefore = await countsBy(platformMetrics, SHED);
        const handOffsBefore = await countsBy(platformMetrics, HAND_OFFS);
        const throttlesBefore = await countsBy(platformMetrics, THROTTLES);
        const cpuBefore = cpu();
        const tick = setInterval(async () => log(`  ${fast.arrivals.size} events arrived in all; ${await gaugesLine(platformMetrics, ADMISSION_GAUGES)}`), 5_000);
        const { sent, start, end } = await offer(api, keys, rate, SECONDS, `offer-${factor}-${Date.now()}`);
        // The load ends when the last caller stops retrying; the backlog then is what must drain.
        const callsEnded = performance.now();
        const cpuDuring = cpuLine(cpuBefore, cpu());
        const ids = new Set(sent.flatMap((s) => [...s.ids]));
        const backlogAtEnd = [...ids].filter((id) => (firstArrival([fast], id) ?? Infinity) > callsEnded).length;
        const drained = await waitFor(() => [...ids].every((id) => fast.arrivals.has(id)), 15 * 60_000);
        clearInterval(tick);
        const lastArrival = Math.max(callsEnded, ...[...ids].map((id) => firstArrival([fast], id) ?? 0));
        const drainSeconds = (lastArrival - callsEnded) / 1000;
        await sleep(3000);
        const firstTries = sent.flatMap((s) => s.calls.map((c) => c[0]));
        const shedFirst = firstTries.filter((t) => t.status === 503 || t.status === 429).length;
        const timedOutFirst = firstTries.filter((t) => t.status === 0).length;
        const firstLat = firstTries.map((t) => t.latencyMs);
        const deliveredInOffer = [...ids].filter((id) => {
          const t = firstArrival([fast], id);
          return t !== undefined && t >= start && t <= end;
        }).length;
        const goodput = deliveredInOffer / ((end - start) / 1000);
        const e2e = sent.filter((s) => s.acceptedAt !== undefined && s.ids.size > 0).map((s) => firstArrival([fast], [...s.ids][0])! - s.acceptedAt!);
        const duplicates = [...ids].filter((id) => arrivalCount([fast], id) > 1).length;
        const lost = [...ids].filter((id) => !fast.arrivals.has(id)).length;
        const twoIds = sent.filter((s) => s.ids.size > 1).length;
        const notAccepted = sent.filter((s) => s.ids.size === 0).length;
        const tasksAfter = await workflowTaskCounts(temporalMetrics);
        const wft = tasksAfter.timedOut - tasksBefore.timedOut;
        const dispatchErrors = tasksAfter.dispatchFailed - tasksBefore.dispatchFailed;
        // A new event once drained: how soon does it reach its receiver?
        const probeSent = performance.now();
        const probe = await client.ingest(api(), keys[0], { type: 'bench.probe', data: {} });
        await waitFor(() => probe.id !== undefined && fast.arrivals.has(probe.id), 30_000);
        const probeMs = probe.id !== undefined && fast.arrivals.has(probe.id) ? fast.arrivals.get(probe.id)![0] - probeSent : NaN;
        const drainRate = backlogAtEnd > 0 && drainSeconds > 0 ? backlogAtEnd / drainSeconds : NaN;
        const after = await measureC(`capacity-${i + 1}`);
        const capacity = (before + after) / 2;
        const line =
          `offer ${factor}× C (${rate.toFixed(1)}/s for ${SECONDS} s, ${sent.length} events, ${firstTries.length} first tries): ` +
          `goodput ${goodput.toFixed(1)}/s = ${(goodput / capacity).toFixed(2)} C (C ${capacity.toFixed(1)}/s, the mean of ${before.toFixed(1)} before and ${after.toFixed(1)} after; ` +
          `${(goodput / before).toFixed(2)} of the C before, ${(goodput / firstCapacity).toFixed(2)} of the run's first C); ` +
          `first try answered p50 ${ms(pct(firstLat, 50))}, p99 ${ms(pct(firstLat, 99))}, max ${ms(Math.max(...firstLat))}; ` +
          `first tries shed ${((100 * shedFirst) / firstTries.length).toFixed(1)} %, timed out ${timedOutFirst}; ` +
          `refusals by reason (platform's count, retries included): ${countsLine(shedBefore, await countsBy(platformMetrics, SHED))}; ` +
          `first attempts handed off, by stage: ${countsLine(handOffsBefore, await countsBy(platformMetrics, HAND_OFFS))}; ` +
          `attempts throttled, by limit: ${countsLine(throttlesBefore, await countsBy(platformMetrics, THROTTLES))}; ` +
          `events never accepted (caller gave up after ${ADVICE.maxRetries} retries) ${notAccepted}; ` +
          `ingest → receiver p50 ${ms(pct(e2e, 50))}, p99 ${ms(pct(e2e, 99))}; ` +
          `duplicates ${duplicates}, lost ${lost}, keys with two ids ${twoIds}; ` +
          `backlog when the last call ended ${backlogAtEnd} events, drained ${drained ? `in ${drainSeconds.toFixed(1)} s` : 'NOT within 15 min'}` +
          `${Number.isFinite(drainRate) ? ` at ${drainRate.toFixed(1)}/s = ${(drainRate / capacity).toFixed(2)} C` : ''}; ` +
          `a new event after the drain reached its receiver in ${ms(probeMs)}; ` +
          `the last call ended ${((callsEnded - end) / 1000).toFixed(1)} s after the offer; ${cpuDuring}; ` +
          `workflow tasks timed out ${wft} (Temporal's failed workflow-task dispatches ${dispatchErrors})`;
        log(line);
        report.push(line);
        if (factor >= 1) {
          goodputs.push({ rate: factor, g: goodput / capacity, capacity });
          const judgeDrain = backlogAtEnd >= DRAIN_MIN_BACKLOG_S * capacity;
          const targets = verdict([
            ['goodput ≥ 0.8 C', goodput / capacity >= TARGETS.goodput],
            ['first try p99 ≤ 1 s', pct(firstLat, 99) <= TARGETS.firstTryP99Ms && timedOutFirst === 0],
            ['0 duplicates', duplicates === 0],
            ['0 lost', lost === 0 && drained],
            ['0 keys with two ids', twoIds === 0],
            ['0 workflow-task time-outs', wft === 0],
            [judgeDrain ? 'drain ≥ 0.8 C' : 'drain (backlog under 1 s of capacity, not judged)', !judgeDrain || drainRate >= TARGETS.drain * capacity],
            ['new event after the drain ≤ 2 s', probeMs <= TARGETS.probeMs],
            [`first POST p99 ≤ ${PROMISED_FIRST_POST_P99_MS / 1000} s (the promise)`, pct(e2e, 99) <= PROMISED_FIRST_POST_P99_MS],
          ]);
          log(`  ${factor}× C: ${targets}`);
          report.push(`  ${factor}× C: ${targets}`);
        }
        before = after;
      }
    }

    if (PHASES.has('slow')) {
      // One receiver (origin) per slow endpoint, as slow endpoints of different customers are.
      const slow = await Promise.all(Array.from({ length: SLOW_ENDPOINTS }, () => startReceiver({ delayMs: SLOW_DELAY_MS })));
      const fastOnly = await startReceiver();
      log(`slow receivers: ${SLOW_ENDPOINTS} endpoints answering after ${SLOW_DELAY_MS / 1000} s, ${FAST_ENDPOINTS} fast ones...`);
      const fastKeys = await createAccounts(mongoUri, platform.apiUrl, FAST_ENDPOINTS, fastOnly.url);
      const slowKeys: string[] = [];
      for (const receiver of slow) slowKeys.push(...(await createAccounts(mongoUri, platform.apiUrl, 1, receiver.url)));
      // The baseline is the same experiment with nothing slow: the same offer, with the 100 slow
      // endpoints' share going to 100 endpoints that answer at once, each its own receiver (origin)
      // as the slow ones are. So both phases put the same load on the platform, connections
      // included, and the only difference is how long the 100 take to answer. (Until issue 19's
      // ninth session the 100 shared one receiver, whose pooled connections cost less than 100
      // origins' handshakes: BENCHMARKS.md.)
      const standIns = await Promise.all(Array.from({ length: SLOW_ENDPOINTS }, () => startReceiver()));
      const standInKeys: string[] = [];
      for (const receiver of standIns) standInKeys.push(...(await createAccounts(mongoUri, platform.apiUrl, 1, receiver.url)));
      const everywhere = [...slow, fastOnly, ...standIns];
      const rate = 0.5 * firstCapacity;
      const fastE2e = (sent: Sent[]) =>
        sent.filter((s) => s.acceptedAt !== undefined && fastOnly.arrivals.has([...s.ids][0])).map((s) => fastOnly.arrivals.get([...s.ids][0])![0] - s.acceptedAt!);
      // Interleaved: every (FAST + SLOW)/FAST-th event goes to a fast endpoint, the others to the 100.
      const every = Math.max(1, Math.round((FAST_ENDPOINTS + SLOW_ENDPOINTS) / FAST_ENDPOINTS));
      const interleave = (others: string[]) =>
        Array.from({ length: every * Math.max(FAST_ENDPOINTS, SLOW_ENDPOINTS) }, (_, i) =>
          i % every === 0 ? fastKeys[(i / every) % FAST_ENDPOINTS] : others[i % SLOW_ENDPOINTS],
        );
      const baseCpuBefore = cpu();
      const base = await offer(api, interleave(standInKeys), rate, SLOW_SECONDS, `slow-base-${Date.now()}`);
      const baseCpu = cpuLine(baseCpuBefore, cpu());
      const baseIds = base.sent.flatMap((s) => [...s.ids]);
      await waitFor(() => baseIds.every((id) => firstArrival(everywhere, id) !== undefined), 120_000);
      const baseE2e = fastE2e(base.sent);
      const logBefore = (platform.logText().match(/TMPRL1104/g) ?? []).length;
      const tasksBefore = await workflowTaskCounts(temporalMetrics);
      const cpuBefore = cpu();
      const handOffsBefore = await countsBy(platformMetrics, HAND_OFFS);
      const mixed = await offer(api, interleave(slowKeys), rate, SLOW_SECONDS, `slow-mixed-${Date.now()}`);
      const cpuDuring = cpuLine(cpuBefore, cpu());
      const ids = new Set(mixed.sent.flatMap((s) => [...s.ids]));
      const drained = await waitFor(() => [...ids].every((id) => firstArrival(everywhere, id) !== undefined), 10 * 60_000);
      await sleep(SLOW_DELAY_MS + 5000);
      const mixedFast = fastE2e(mixed.sent);
      const tasksAfter = await workflowTaskCounts(temporalMetrics);
      const wft = tasksAfter.timedOut - tasksBefore.timedOut;
      const dispatchErrors = tasksAfter.dispatchFailed - tasksBefore.dispatchFailed;
      const warnings = (platform.logText().match(/TMPRL1104/g) ?? []).length - logBefore;
      const duplicates = [...ids].filter((id) => arrivalCount(everywhere, id) > 1).length;
      const lost = [...ids].filter((id) => firstArrival(everywhere, id) === undefined).length;
      const ratio = pct(mixedFast, 99) / pct(baseE2e, 99);
      const slowTargets = verdict([
        ["fast endpoints' p99 ≤ 2× without slow ones", ratio <= 2],
        ['0 workflow-task time-outs', wft === 0],
        ['no warning per slow attempt', warnings === 0],
        ['0 duplicates', duplicates === 0],
        ['0 lost', lost === 0 && drained],
      ]);
      const line =
        `slow receivers (${SLOW_ENDPOINTS} answering after ${SLOW_DELAY_MS / 1000} s + ${FAST_ENDPOINTS} fast, ${rate.toFixed(1)}/s = 0.5 C for ${SLOW_SECONDS} s): ` +
        `fast endpoints' ingest → receiver p50 ${ms(pct(mixedFast, 50))}, p99 ${ms(pct(mixedFast, 99))} against p50 ${ms(pct(baseE2e, 50))}, p99 ${ms(pct(baseE2e, 99))} with the 100 answering at once (${ratio.toFixed(2)}×, ${mixedFast.length} and ${baseE2e.length} events); ` +
        `first attempts handed off, by stage: ${countsLine(handOffsBefore, await countsBy(platformMetrics, HAND_OFFS))}; ` +
        `workflow tasks timed out ${wft} (Temporal's failed workflow-task dispatches ${dispatchErrors}); TMPRL1104 warnings logged ${warnings}; duplicates ${duplicates}, lost ${lost}${drained ? '' : ' (not drained in 10 min)'}; ${cpuDuring}; without slow ones ${baseCpu}`;
      log(line);
      report.push(line, `  slow receivers: ${slowTargets}`);
      for (const receiver of everywhere) receiver.close();
    }

    if (goodputs.length > 0) {
      const worst = goodputs.reduce((a, b) => (b.g < a.g ? b : a));
      report.push(`overload goodput ${worst.g.toFixed(2)} (capacity ${worst.capacity.toFixed(1)}/s, worst rate ${worst.rate}×)`);
    }
    process.stdout.write(`${report.join('\n')}\n`);
  } finally {
    await client.close();
    await stopPlatform(platform, 30_000);
    fast.close();
  }
}

runBench(main);

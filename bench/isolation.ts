/**
 * `npm run bench:isolation`: one account's dead endpoints or burst must not make the platform
 * refuse, or delay, everyone else. A quiet account Q (tier team) sends 1 event/s to one quick
 * HTTPS endpoint throughout:
 *
 *   capacity     C, once per run, as bench:overload measures it (ISOLATION_CAPACITY_EVENTS, 2,000).
 *   baseline     Q alone for ISOLATION_BASELINE_SECONDS (30).
 *   beside N1    N1 (tier business) has 50 endpoints that take the TLS connection and the request
 *                and never answer (the platform gives up after its 30 s); it sends 2 events/s for
 *                ISOLATION_SECONDS (90), each to its 50 endpoints.
 *   beside N2    N2 (tier enterprise) sends at its burst limit, 50 events/s (429s past 3,000 a minute
 *                are expected), each to 10 quick endpoints, for ISOLATION_SECONDS, while N1's
 *                deliveries are still retrying.
 *   beside both  N1 and N2 at once.
 *
 * After each neighbour phase the neighbours stop (no try of theirs begins after the phase, and the
 * probe waits for the ones in flight) and a new event of Q is sent: the probe, from its first try
 * until it reaches Q's receiver. Every caller follows the spec's advice on 429 and 503 (Retry-After,
 * doubled per retry, plus up to 500 ms of jitter, at most 5 retries, one idempotency key per event).
 *
 * Per phase, for Q: first tries refused, events acknowledged (after retries, and never), ingest →
 * receiver p50 / p99 (from the try that was acknowledged, as bench:overload measures it), lost
 * (acknowledged, not delivered within ISOLATION_DRAIN_SECONDS, 180), duplicates (two arrivals of one
 * X-Webhook-ID) and the probe; for N1 and N2, events acknowledged, and N2's goodput (distinct
 * deliveries to its quick endpoints per second during the phase) against 0.8 × (C − Q's rate);
 * workflow tasks timed out and workflow-task dispatches failed (the Temporal server's metrics) and TMPRL1104 lines in the platform
 * processes' logs; CPU per process. Each phase gets a verdict against the targets below, each figure
 * of Q judged against Q's own baseline in the same run. The last line is
 * `isolation: quiet p99 X ms (baseline B ms), quiet refused R %`, X and R Q's worst over the
 * neighbour phases.
 *
 * BENCH_TOPOLOGY=combined (default, `npm start`) or separate (two `npm run api` taking calls in
 * turn, one `npm run worker`, one Temporal dev server and one FerretDB). ISOLATION_PHASES picks
 * neighbour phases (default n1,n2,both). A smoke run: ISOLATION_SECONDS=15 ISOLATION_BASELINE_SECONDS=10
 * ISOLATION_CAPACITY_EVENTS=300 ISOLATION_DRAIN_SECONDS=60 (its figures measure nothing).
 */
import { ADVICE, arrivalCount, benchTopology, countsBy, countsLine, cpuShares, createAccount, createAccounts, describeMachine, ingestClient, log, measureCapacity, ms, offer, pct, Receiver, runBench, Sent, sendEvent, sleep, startBenchPlatform, startReceiver, stopPlatform, verdict, waitFor, warmUp, temporalWaits, temporalWaitsLine, workflowTaskCounts } from './delivery-support';

const SECONDS = Number(process.env.ISOLATION_SECONDS ?? 90);
const BASELINE_SECONDS = Number(process.env.ISOLATION_BASELINE_SECONDS ?? 30);
const CAPACITY_EVENTS = Number(process.env.ISOLATION_CAPACITY_EVENTS ?? 2000);
const DRAIN_SECONDS = Number(process.env.ISOLATION_DRAIN_SECONDS ?? 180);
const PHASES = (process.env.ISOLATION_PHASES ?? 'n1,n2,both').split(',');
/** Spreads the capacity measurement over accounts, as bench:overload does, so no burst limit caps it. */
const CAPACITY_ACCOUNTS = 12;

const Q_RATE = 1;
const N1 = { rate: 2, endpoints: 50 };
const N2 = { rate: 50, endpoints: 10 };
/** How long the probe may take to arrive once acknowledged; past it, it counts as not arrived. */
const PROBE_WAIT_MS = 60_000;

/** What an account is owed whatever its neighbours do. */
const TARGETS = { refusedShare: 0.01, p99FloorMs: 2_000, p99OverBaseline: 3, probeMs: 2_000, goodputShare: 0.8 };

const SHED = 'webhook_ingest_shed_total';
const THROTTLES = 'webhook_attempts_throttled_total';

const client = ingestClient(4096);

interface QuietFigures {
  events: number;
  refusedFirst: number;
  timedOutFirst: number;
  refusedShare: number;
  acknowledged: number;
  afterRetries: number;
  p50: number;
  p99: number;
  /** From the event's first try, refusals included: what Q's own customers would see. */
  p99FromFirstTry: number;
  lost: number;
  duplicates: number;
}

/** Q's side of a phase, once its calls ended and its deliveries drained (or the drain wait ran out). */
function quietFigures(sent: Sent[], receiver: Receiver): QuietFigures {
  const firstTries = sent.map((s) => s.calls[0][0]);
  const refusedFirst = firstTries.filter((t) => t.status === 503 || t.status === 429).length;
  const acknowledged = sent.filter((s) => s.ids.size > 0);
  const arrival = (s: Sent) => receiver.arrivals.get([...s.ids][0])?.[0];
  const delivered = acknowledged.filter((s) => arrival(s) !== undefined);
  const ids = new Set(acknowledged.flatMap((s) => [...s.ids]));
  const e2e = delivered.map((s) => arrival(s)! - s.acceptedAt!);
  return {
    events: sent.length,
    refusedFirst,
    timedOutFirst: firstTries.filter((t) => t.status === 0).length,
    refusedShare: sent.length === 0 ? NaN : refusedFirst / sent.length,
    acknowledged: acknowledged.length,
    afterRetries: acknowledged.filter((s) => s.calls[0][0].id === undefined).length,
    p50: pct(e2e, 50),
    p99: pct(e2e, 99),
    p99FromFirstTry: pct(delivered.map((s) => arrival(s)! - s.calls[0][0].sent), 99),
    lost: [...ids].filter((id) => !receiver.arrivals.has(id)).length,
    duplicates: [...ids].filter((id) => arrivalCount([receiver], id) > 1).length,
  };
}

const share = (v: number) => `${(100 * v).toFixed(1)} %`;

function quietLine(q: QuietFigures): string {
  return (
    `Q: first tries refused ${q.refusedFirst} of ${q.events} (${share(q.refusedShare)}), timed out ${q.timedOutFirst}; ` +
    `acknowledged ${q.acknowledged} of ${q.events} (${q.afterRetries} after retries; ${q.events - q.acknowledged} not even after ${ADVICE.maxRetries} retries); ` +
    `ingest → receiver p50 ${ms(q.p50)}, p99 ${ms(q.p99)} (from the event's first try: p99 ${ms(q.p99FromFirstTry)}); ` +
    `lost ${q.lost}, duplicates ${q.duplicates}`
  );
}

async function main(): Promise<void> {
  const machine = describeMachine();
  const topology = benchTopology();
  // One origin per endpoint, as endpoints of different hosts are.
  const capacityReceiver = await startReceiver();
  const quiet = await startReceiver();
  const dead = await Promise.all(Array.from({ length: N1.endpoints }, () => startReceiver({ hang: true })));
  const burst = await Promise.all(Array.from({ length: N2.endpoints }, () => startReceiver()));
  const receivers = [capacityReceiver, quiet, ...dead, ...burst];
  const platform = await startBenchPlatform('bench-isolation-', {}, { topology, metrics: true });
  const { cpu, mongoUri, temporalMetricsUrl, metricsUrls } = platform;
  // Calls go to the API processes in turn, as a load balancer sends them.
  const api = platform.nextApiUrl;
  const warnings = () => (platform.logText().match(/TMPRL1104/g) ?? []).length;
  const report: string[] = [`machine: ${machine}`, `topology: ${platform.description}`];
  try {
    const capacityKeys = await createAccounts(mongoUri, platform.apiUrl, CAPACITY_ACCOUNTS, capacityReceiver.url);
    const qKey = await createAccount(mongoUri, platform.apiUrl, 'team', [quiet.url]);
    const n1Key = await createAccount(mongoUri, platform.apiUrl, 'business', dead.map((r) => r.url));
    const n2Key = await createAccount(mongoUri, platform.apiUrl, 'enterprise', burst.map((r) => r.url));
    await warmUp(client, api, (i) => capacityKeys[i % capacityKeys.length]);

    const runTasksBefore = await workflowTaskCounts(temporalMetricsUrl);
    const runWarningsBefore = warnings();
    const { perSecond: capacity, ids: capacityIds } = await measureCapacity(client, api, capacityKeys, capacityReceiver, CAPACITY_EVENTS);
    const capLine = `capacity C: ${capacityIds.length} events delivered at ${capacity.toFixed(1)}/s (closed loop, first ingest to last arrival)`;
    log(capLine);
    report.push(capLine);
    await sleep(3000);

    /** One phase: Q at its rate beside the neighbours asked for; then the probe, Q's drain and the figures. */
    const phase = async (name: string, seconds: number, neighbours: { n1: boolean; n2: boolean }) => {
      log(`${name}: Q ${Q_RATE}/s${neighbours.n1 ? `, N1 ${N1.rate}/s to ${N1.endpoints} endpoints that never answer` : ''}${neighbours.n2 ? `, N2 ${N2.rate}/s to ${N2.endpoints} quick endpoints` : ''}, for ${seconds} s...`);
      const tasksBefore = await workflowTaskCounts(temporalMetricsUrl);
      const warningsBefore = warnings();
      const shedBefore = await countsBy(metricsUrls, SHED);
      const throttlesBefore = await countsBy(metricsUrls, THROTTLES);
      const waitsBefore = await temporalWaits(temporalMetricsUrl);
      const cpuBefore = cpu();
      const label = `${name.replace(/\W+/g, '-')}-${Date.now()}`;
      const q = offer(client, api, [qKey], Q_RATE, seconds, `q-${label}`, { type: 'bench.isolation.quiet' });
      // Neighbours stop at the phase's end: no try of theirs begins after it.
      const n1 = neighbours.n1 ? offer(client, api, [n1Key], N1.rate, seconds, `n1-${label}`, { type: 'bench.isolation.dead', stopAtEnd: true }) : undefined;
      const n2 = neighbours.n2 ? offer(client, api, [n2Key], N2.rate, seconds, `n2-${label}`, { type: 'bench.isolation.burst', stopAtEnd: true }) : undefined;
      const tick = setInterval(() => log(`  Q: ${quiet.arrivals.size} events arrived in all`), 15_000);
      // The phase ends when its time is up and no neighbour's try is still in flight.
      const [n1Done, n2Done] = await Promise.all([n1, n2, sleep(seconds * 1000)]);
      const cpuLine = `CPU (of one core) ${cpuShares(cpuBefore, cpu())}`;
      const waitsLine = temporalWaitsLine(waitsBefore, await temporalWaits(temporalMetricsUrl));

      let probeLine = '';
      let probeMs = NaN;
      if (neighbours.n1 || neighbours.n2) {
        const probe = await sendEvent(client, api, qKey, { type: 'bench.isolation.probe', data: {}, idempotency_key: `probe-${label}` });
        const probeId = [...probe.ids][0];
        if (probeId === undefined) probeLine = `probe NOT acknowledged (${probe.calls[0].length} tries)`;
        else {
          await waitFor(() => quiet.arrivals.has(probeId), PROBE_WAIT_MS);
          const arrived = quiet.arrivals.get(probeId)?.[0];
          probeMs = arrived === undefined ? NaN : arrived - probe.calls[0][0].sent;
          probeLine =
            arrived === undefined
              ? `probe acknowledged but NOT delivered within ${PROBE_WAIT_MS / 1000} s`
              : `probe (a new event of Q once the neighbours stopped) reached its receiver in ${ms(probeMs)} (${probe.calls[0].length} tries)`;
        }
      }

      const qDone = await q;
      const qIds = qDone.sent.flatMap((s) => [...s.ids]);
      const drained = await waitFor(() => qIds.every((id) => quiet.arrivals.has(id)), DRAIN_SECONDS * 1000);
      clearInterval(tick);
      // Time for a second POST of an event to show.
      await sleep(3000);
      const figures = quietFigures(qDone.sent, quiet);
      const tasks = await workflowTaskCounts(temporalMetricsUrl);
      const wft = tasks.timedOut - tasksBefore.timedOut;
      const dispatchErrors = tasks.dispatchFailed - tasksBefore.dispatchFailed;
      const warned = warnings() - warningsBefore;
      const parts = [`${name} (${seconds} s)`, quietLine(figures) + (drained ? '' : ` (not all delivered within ${DRAIN_SECONDS} s)`)];
      if (probeLine) parts.push(probeLine);
      const acknowledged = (sent: Sent[]) => sent.filter((s) => s.ids.size > 0).length;
      if (n1Done) {
        const posts = dead.reduce((sum, r) => sum + [...r.arrivals.values()].flat().filter((t) => t >= n1Done.start && t <= n1Done.end).length, 0);
        parts.push(`N1: acknowledged ${acknowledged(n1Done.sent)} of ${n1Done.sent.length}; its dead endpoints got ${posts} POSTs during the phase`);
      }
      let goodput = NaN;
      if (n2Done) {
        // Deliveries, not events: each event of N2 is one delivery to each of its endpoints.
        const deliveries = burst.reduce((sum, r) => sum + [...r.arrivals.values()].filter((times) => times[0] >= n2Done.start && times[0] <= n2Done.end).length, 0);
        goodput = deliveries / ((n2Done.end - n2Done.start) / 1000);
        const firstTries = n2Done.sent.map((s) => s.calls[0][0]);
        parts.push(
          `N2: acknowledged ${acknowledged(n2Done.sent)} of ${n2Done.sent.length} (first tries: ${firstTries.filter((t) => t.status === 429).length} got 429, ${firstTries.filter((t) => t.status === 503).length} got 503); ` +
            `goodput ${goodput.toFixed(1)} deliveries/s = ${(goodput / (capacity - Q_RATE)).toFixed(2)} × (C − Q's rate)`,
        );
      }
      parts.push(`refusals by reason (platform's count, retries included): ${countsLine(shedBefore, await countsBy(metricsUrls, SHED)) || 'none'}`);
      parts.push(`attempts throttled, by limit: ${countsLine(throttlesBefore, await countsBy(metricsUrls, THROTTLES)) || 'none'}`);
      parts.push(`workflow tasks timed out ${wft} (Temporal's failed workflow-task dispatches ${dispatchErrors}); TMPRL1104 lines logged ${warned}`, cpuLine, waitsLine);
      const line = parts.join('; ');
      log(line);
      report.push(line);
      return { figures, probeMs, goodput, wft, warned, neighbours };
    };

    const baseline = (await phase('baseline', BASELINE_SECONDS, { n1: false, n2: false })).figures;
    const p99Limit = Math.max(TARGETS.p99FloorMs, TARGETS.p99OverBaseline * baseline.p99);
    const goodputTarget = TARGETS.goodputShare * (capacity - Q_RATE);

    const worst = { p99: NaN, refusedShare: NaN };
    const neighbourPhases: Array<[string, { n1: boolean; n2: boolean }]> = [
      ['n1', { n1: true, n2: false }],
      ['n2', { n1: false, n2: true }],
      ['both', { n1: true, n2: true }],
    ];
    for (const [key, neighbours] of neighbourPhases.filter(([k]) => PHASES.includes(k))) {
      const name = key === 'both' ? 'beside N1 and N2' : `beside ${key.toUpperCase()}`;
      const r = await phase(name, SECONDS, neighbours);
      const q = r.figures;
      // Nothing acknowledged counts as the worst there is, not as no figure.
      const p99 = q.acknowledged === 0 ? Infinity : q.p99;
      worst.p99 = Number.isNaN(worst.p99) ? p99 : Math.max(worst.p99, p99);
      worst.refusedShare = Number.isNaN(worst.refusedShare) ? q.refusedShare : Math.max(worst.refusedShare, q.refusedShare);
      const checks: Array<[string, boolean, string?]> = [
        [`Q's first tries refused ≤ ${share(TARGETS.refusedShare)}`, q.refusedShare <= TARGETS.refusedShare, share(q.refusedShare)],
        [`Q's p99 ≤ ${ms(p99Limit)} (max of 2 s, 3 × baseline)`, p99 <= p99Limit, ms(p99)],
        ["0 of Q's events lost", q.lost === 0 && q.acknowledged > 0, `${q.lost} of ${q.acknowledged}`],
        ["0 of Q's events delivered twice", q.duplicates === 0, String(q.duplicates)],
        ['probe ≤ 2 s', r.probeMs <= TARGETS.probeMs, ms(r.probeMs)],
      ];
      if (neighbours.n2) checks.push([`N2 goodput ≥ 0.8 × (C − Q's rate) = ${goodputTarget.toFixed(1)}/s`, r.goodput >= goodputTarget, `${r.goodput.toFixed(1)}/s`]);
      checks.push(['0 workflow-task time-outs', r.wft === 0, Number.isNaN(r.wft) ? 'metrics not read' : String(r.wft)], ['0 TMPRL1104', r.warned === 0, String(r.warned)]);
      const targets = `  ${name}: ${verdict(checks)}`;
      log(targets);
      report.push(targets);
    }

    const runTasks = await workflowTaskCounts(temporalMetricsUrl);
    report.push(
      `whole run (capacity included): workflow tasks timed out ${runTasks.timedOut - runTasksBefore.timedOut} (Temporal's failed workflow-task dispatches ${runTasks.dispatchFailed - runTasksBefore.dispatchFailed}), TMPRL1104 lines logged ${warnings() - runWarningsBefore}`,
      `isolation: quiet p99 ${worst.p99.toFixed(0)} ms (baseline ${baseline.p99.toFixed(0)} ms), quiet refused ${(100 * worst.refusedShare).toFixed(1)} %`,
    );
    process.stdout.write(`${report.join('\n')}\n`);
  } finally {
    await client.close();
    await stopPlatform(platform, 30_000);
    for (const r of receivers) r.close();
  }
}

runBench(main);

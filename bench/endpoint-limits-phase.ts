/**
 * Phase (e) of `npm run bench:delivery`: what an endpoint's own limits (rate_limit_per_s,
 * max_in_flight) cost per delivery, against plain endpoints on the same platform in the same run.
 *
 *   (e1) plain      BENCH_LIMITS_RATE events/s (20) for BENCH_LIMITS_SECONDS (30) to endpoints without limits.
 *   (e2) limited    the same to endpoints with limits never reached (1000/s, 100 in flight): the
 *                   store round trips every attempt of a limited endpoint pays (a lease, a token).
 *   (e3) throttled  a burst of BENCH_LIMITS_BURST events (300) to one endpoint at rate_limit_per_s
 *                   BENCH_LIMITS_PER_S (10): delivered/s against the limit, the most in a whole
 *                   second at the receiver, and the CPU each delivery costs while most of them wait.
 *   (e4) in flight  a burst of 100 events to one endpoint with max_in_flight 2 whose receiver answers
 *                   after 100 ms: delivered/s against its ceiling (2 / 0.1 s = 20/s), CPU per delivery.
 *
 * CPU is that of the platform's processes (embedded servers included), not this benchmark's.
 */
import { createAccounts, type BenchPlatform, type CpuReading, type IngestClient, log, ms, pct, type Receiver, sleep, startReceiver, waitFor } from './delivery-support';

const RATE = Number(process.env.BENCH_LIMITS_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_LIMITS_SECONDS ?? 30);
const BURST = Number(process.env.BENCH_LIMITS_BURST ?? 300);
const PER_S = Number(process.env.BENCH_LIMITS_PER_S ?? 10);
const ACCOUNTS = 10;
const NEVER_REACHED = { rate_limit_per_s: 1000, max_in_flight: 100 };

/** CPU seconds of the platform's processes (its embedded servers included), without this benchmark's. */
export const platformCpu = (r: CpuReading) => Object.entries(r.seconds).reduce((sum, [name, s]) => (name === 'bench' ? sum : sum + s), 0);
const cpuPerDelivery = (from: CpuReading, to: CpuReading, deliveries: number) => `${ms(((platformCpu(to) - platformCpu(from)) * 1000) / Math.max(1, deliveries))} CPU per delivery`;
/** Arrivals (performance.now()) counted per whole second of the epoch, as the limiter counts starts. */
const mostInOneSecond = (arrivals: number[]) => {
  const counts = new Map<number, number>();
  for (const t of arrivals) {
    const second = Math.floor((performance.timeOrigin + t) / 1000);
    counts.set(second, (counts.get(second) ?? 0) + 1);
  }
  return Math.max(0, ...counts.values());
};

/** RATE events/s for SECONDS to the accounts of `keys` (one endpoint each): latency and the platform's CPU per delivery. */
export async function steady(label: string, platform: BenchPlatform, client: IngestClient, receiver: Receiver, keys: string[], phase = '(e)'): Promise<string> {
  log(`${phase} ${label}: ${RATE} events/s for ${SECONDS} s...`);
  const from = platform.cpu();
  const sent: Array<Promise<{ id?: number; at: number; status: number }>> = [];
  const start = performance.now();
  for (let i = 0; i < RATE * SECONDS; i++) {
    const wait = start + (i * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    const at = performance.now();
    sent.push(client.ingest(platform.nextApiUrl(), keys[i % keys.length] as string, { type: 'bench.limits', data: { i } }).then((o) => ({ id: o.id, at, status: o.status })));
  }
  const accepted = (await Promise.all(sent)).filter((s) => s.status === 202);
  await waitFor(() => accepted.every((s) => receiver.arrivals.has(s.id!)), 300_000);
  const to = platform.cpu();
  const e2e = accepted.filter((s) => receiver.arrivals.has(s.id!)).map((s) => (receiver.arrivals.get(s.id!)![0] as number) - s.at);
  return `${label}: ${accepted.length} events, ingest → receiver p50 ${ms(pct(e2e, 50))}, p99 ${ms(pct(e2e, 99))}; not delivered ${accepted.length - e2e.length}; ${cpuPerDelivery(from, to, e2e.length)}`;
}

/** `count` events to the account of `key`, 16 calls at a time: delivered/s, the most in one second, CPU per delivery. */
export async function burst(
  label: string,
  platform: BenchPlatform,
  client: IngestClient,
  receiver: Receiver,
  key: string,
  count: number,
  phase = '(e)',
): Promise<{ line: string; perSecond: number }> {
  log(`${phase} ${label}: burst of ${count} events...`);
  const from = platform.cpu();
  const start = performance.now();
  const ids: number[] = [];
  let next = 0;
  // The label names the limit in words; an idempotency key has no spaces.
  const keyPrefix = `${label.replace(/[^A-Za-z0-9]+/g, '-')}-${Date.now()}`;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        const n = next++;
        for (;;) {
          const o = await client.ingest(platform.nextApiUrl(), key, { type: 'bench.limits', data: { n }, idempotency_key: `${keyPrefix}-${n}` });
          if (o.status === 202 || o.status === 200) {
            ids.push(o.id!);
            break;
          }
          if (o.status !== 429 && o.status !== 503) throw new Error(`ingest answered ${o.status}: ${JSON.stringify(o)}`);
          await sleep(500);
        }
      }
    }),
  );
  await waitFor(() => ids.every((id) => receiver.arrivals.has(id)), 30 * 60_000);
  const to = platform.cpu();
  const arrivals = ids.filter((id) => receiver.arrivals.has(id)).map((id) => receiver.arrivals.get(id)![0] as number);
  const seconds = (Math.max(...arrivals) - start) / 1000;
  const perSecond = arrivals.length / seconds;
  const line = `${label}: ${arrivals.length} of ${count} delivered in ${seconds.toFixed(1)} s = ${perSecond.toFixed(1)}/s; most in one whole second at the receiver ${mostInOneSecond(arrivals)}; ${cpuPerDelivery(from, to, arrivals.length)}`;
  return { line, perSecond };
}

/** Runs (e1) to (e4) on a running platform; answers the report's lines. */
export async function measureEndpointLimits(platform: BenchPlatform, client: IngestClient, receiver: Receiver): Promise<string[]> {
  const plainKeys = await createAccounts(platform.mongoUri, platform.apiUrl, ACCOUNTS, receiver.url);
  const limitedKeys = await createAccounts(platform.mongoUri, platform.apiUrl, ACCOUNTS, receiver.url, NEVER_REACHED);
  const [throttledKey] = await createAccounts(platform.mongoUri, platform.apiUrl, 1, receiver.url, { rate_limit_per_s: PER_S });
  const slow = await startReceiver({ delayMs: 100 });
  try {
    const [inFlightKey] = await createAccounts(platform.mongoUri, platform.apiUrl, 1, slow.url, { max_in_flight: 2 });
    const lines = [
      `(e1) ${await steady('plain endpoints', platform, client, receiver, plainKeys)}`,
      `(e2) ${await steady(`endpoints with limits never reached (${JSON.stringify(NEVER_REACHED)})`, platform, client, receiver, limitedKeys)}`,
    ];
    const throttled = await burst(`rate_limit_per_s ${PER_S}`, platform, client, receiver, throttledKey as string, BURST);
    lines.push(`(e3) ${throttled.line} (limit ${PER_S}/s: ${(throttled.perSecond / PER_S).toFixed(2)} of it used)`);
    const inFlight = await burst('max_in_flight 2, receiver answering after 100 ms', platform, client, slow, inFlightKey as string, 100);
    lines.push(`(e4) ${inFlight.line} (ceiling 20/s: ${(inFlight.perSecond / 20).toFixed(2)} of it used)`);
    for (const line of lines) log(line);
    return lines;
  } finally {
    slow.close();
  }
}

/**
 * The load generator of `npm run bench:estimator`, run as its own process so that autocannon
 * does not share an event loop with the server it measures. Reads one JSON job from argv,
 * runs a warm-up and then the measured run, and prints the measured result as one JSON line.
 */

/** The part of autocannon's API used here (the package ships no type declarations). */
interface AutocannonRequest {
  method: string;
  body?: string;
  headers: Record<string, string>;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (options: {
  url: string;
  connections: number;
  duration: number;
  requests: AutocannonRequest[];
}) => Promise<AutocannonResult>;

export interface LoadJob {
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  /** x-api-key values, used round-robin. */
  keys: string[];
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

function run(job: LoadJob, seconds: number): Promise<AutocannonResult> {
  // One request per key: each connection cycles through them, spreading the load over every account's limits.
  const requests = job.keys.map((key) => ({
    method: job.method,
    body: job.body,
    headers: { 'x-api-key': key, ...(job.body ? { 'content-type': 'application/json' } : {}) },
  }));
  return autocannon({ url: job.url, connections: job.connections, duration: seconds, requests });
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2]) as LoadJob;
  if (job.warmupSeconds > 0) await run(job, job.warmupSeconds);
  const r = await run(job, job.durationSeconds);
  const result: LoadResult = {
    requestsPerSecond: Math.round(r.requests.average),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    latencyMaxMs: r.latency.max,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

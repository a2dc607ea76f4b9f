/**
 * The load generator of `npm run bench:auth`, run as its own process so that it does not share
 * an event loop with the server it measures. Reads one JSON job from argv[2], runs autocannon,
 * prints one JSON result line on stdout.
 */
import autocannon from 'autocannon';

interface Job {
  url: string;
  path: string;
  /** One Authorization header per account; each connection cycles through them (round-robin). */
  keys: string[];
  connections: number;
  duration: number;
  /** Requests per second over all connections; 0 = as fast as possible. */
  rate: number;
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2]) as Job;
  // Every request takes the next key, across all connections: the accounts share the load evenly
  // at every instant (a per-connection sequence would move all connections through the keys in step).
  let next = 0;
  const requests =
    job.keys.length > 0
      ? [
          {
            method: 'GET' as const,
            path: job.path,
            setupRequest: (request: { headers?: Record<string, string> }) => {
              request.headers = { ...request.headers, authorization: `Bearer ${job.keys[next++ % job.keys.length]}` };
              return request;
            },
          },
        ]
      : [{ method: 'GET' as const, path: job.path }];
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.duration,
    requests,
    ...(job.rate > 0 ? { overallRate: job.rate } : {}),
  });
  const cpu = process.cpuUsage(cpuBefore);
  const l = result.latency;
  process.stdout.write(
    `${JSON.stringify({
      requests: result.requests.total,
      duration: result.duration,
      rps: result.requests.average,
      latency: { p50: l.p50, p90: l.p90, p97_5: l.p97_5, p99: l.p99, max: l.max, mean: l.average },
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      cpuMicros: cpu.user + cpu.system,
      statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count])),
    })}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

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
  // One request per key, each built once: rebuilding a request per call (setupRequest) costs the
  // generator several times what it spends on a call without a key, and on 2 cores that is taken
  // from the server it measures. Each connection goes round the keys from its own place, evenly
  // spaced, so at every instant the connections are on different accounts.
  const perKey = job.keys.map((key) => ({ method: 'GET' as const, path: job.path, headers: { authorization: `Bearer ${key}` } }));
  let clients = 0;
  const setupClient = (client: { setRequests(requests: unknown[]): void }) => {
    const from = Math.floor(((clients++ % job.connections) * perKey.length) / job.connections);
    client.setRequests([...perKey.slice(from), ...perKey.slice(0, from)].map((request) => ({ ...request })));
  };
  const requests = [{ method: 'GET' as const, path: job.path }];
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.duration,
    requests,
    ...(perKey.length > 0 ? { setupClient } : {}),
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

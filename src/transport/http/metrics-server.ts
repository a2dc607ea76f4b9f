import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../config/config';
import type { Logger } from '../../infra/logger';
import { metricsRegistry } from '../../infra/metrics';
import { tokensMatch } from './dashboard/csrf';

/** A listener of its own, apart from the public API, so the operator decides who reaches the metrics (METRICS_TOKEN, when set). */
export async function startMetricsServer(options: Config['metrics'] & { port: number }, logger: Logger) {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
      res.end(body);
    };
    if (path !== '/metrics') return reply(404, 'Not found: metrics are at /metrics.\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'Method not allowed.\n', { Allow: 'GET, HEAD' });
    if (options.token && !tokensMatch(`Bearer ${options.token}`, req.headers.authorization ?? '')) {
      return reply(401, 'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".\n', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    }
    metricsRegistry.metrics().then(
      (text) => reply(200, req.method === 'HEAD' ? '' : text, { 'Content-Type': metricsRegistry.contentType }),
      (err) => {
        logger.error({ err }, 'metrics collection failed');
        reply(500, 'Metrics collection failed.\n');
      },
    );
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

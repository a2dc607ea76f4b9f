import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/**
 * docker-compose.yml's defaults: the services without authentication of their own (Temporal's
 * gRPC port and Web UI) and the operators' tools (Prometheus, Grafana) are reachable only from the
 * host itself, and Grafana has no default admin password.
 */
interface Service {
  ports?: Array<string | number | { published?: string | number; host_ip?: string }>;
  environment?: Record<string, string> | string[];
}
const compose = parse(readFileSync(path.join(__dirname, '../../../docker-compose.yml'), 'utf8')) as { services: Record<string, Service> };

const LOOPBACK = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/** The host address a published port binds to ('' = every interface), per compose's port syntaxes. */
function hostAddress(port: string | number | { published?: string | number; host_ip?: string }): string {
  if (typeof port === 'object') return port.host_ip ?? '';
  const text = String(port).replace(/\/(tcp|udp)$/, '');
  const parts = text.startsWith('[') ? [text.slice(0, text.indexOf(']') + 1), ...text.slice(text.indexOf(']') + 2).split(':')] : text.split(':');
  return parts.length === 3 ? (parts[0] as string) : '';
}

describe('docker-compose.yml exposure', () => {
  it.each(['temporal', 'temporal-ui', 'prometheus', 'grafana', 'jaeger'])('publishes %s on the loopback only (or not at all)', (name) => {
    const service = compose.services[name];
    expect(service).toBeDefined();
    for (const port of service!.ports ?? []) expect(LOOPBACK.has(hostAddress(port))).toBe(true);
  });

  it.each([
    ['api', 'platform-api'],
    ['worker', 'platform-worker'],
  ])('sends the traces of %s to Jaeger as %s', (name, serviceName) => {
    const merged = parse(readFileSync(path.join(__dirname, '../../../docker-compose.yml'), 'utf8'), { merge: true }) as typeof compose;
    const env = merged.services[name]!.environment as Record<string, string>;
    expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('${OTEL_EXPORTER_OTLP_ENDPOINT:-http://jaeger:4318}');
    expect(env.OTEL_SERVICE_NAME).toBe(serviceName);
    expect(env.MONGODB_URI).toBeDefined();
  });

  it('requires GRAFANA_ADMIN_PASSWORD, with no default', () => {
    const env = compose.services.grafana!.environment as Record<string, string>;
    expect(env.GF_SECURITY_ADMIN_PASSWORD).toMatch(/^\$\{GRAFANA_ADMIN_PASSWORD:\?[^}]+\}$/);
  });

  it('reads the ports the way compose does (the check above can fail)', () => {
    expect(hostAddress('7233:7233')).toBe('');
    expect(hostAddress(7233)).toBe('');
    expect(hostAddress('0.0.0.0:7233:7233')).toBe('0.0.0.0');
    expect(hostAddress('127.0.0.1:7233:7233/tcp')).toBe('127.0.0.1');
    expect(hostAddress('[::1]:7233:7233')).toBe('[::1]');
    expect(hostAddress({ published: 7233 })).toBe('');
  });
});

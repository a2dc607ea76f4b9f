import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/JSON export carries it, with its attributes as plain values. */
export interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  scope: string;
  service: string;
  attributes: Record<string, unknown>;
}

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean; arrayValue?: { values?: AnyValue[] }; kvlistValue?: unknown };
type KeyValue = { key: string; value: AnyValue };

function plain(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  return value.kvlistValue ?? null;
}

const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map((kv) => [kv.key, plain(kv.value)]));

/**
 * An OTLP/HTTP receiver on 127.0.0.1 taking JSON exports (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`),
 * as a collector or Jaeger would: every span it was sent, and every raw export to scan as a whole.
 */
export async function startOtlpSink() {
  const spans: ExportedSpan[] = [];
  const raw: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      raw.push(text);
      try {
        const body = JSON.parse(text) as { resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ scope?: { name?: string }; spans?: Array<Record<string, unknown>> }> }> };
        for (const rs of body.resourceSpans ?? []) {
          const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              spans.push({
                traceId: String(s.traceId),
                spanId: String(s.spanId),
                parentSpanId: s.parentSpanId ? String(s.parentSpanId) : undefined,
                name: String(s.name),
                kind: Number(s.kind),
                scope: ss.scope?.name ?? '',
                service,
                attributes: attributesOf(s.attributes as KeyValue[]),
              });
            }
          }
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    raw,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

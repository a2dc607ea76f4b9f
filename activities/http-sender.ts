import { StringDecoder } from 'node:string_decoder';
import { Agent, buildConnector, request } from 'undici';
import { createGuardedLookup, LookupAllFunction, resolveAndCheck } from '../src/domain/webhooks/destination-resolver';
import { ATTR, inSpan, spanAroundCallback, unpropagated } from '../src/infra/tracing/spans';
import { failed, type SendResult, type Transport } from './transport';

/** platform-api.md: no answer within 30 seconds is a failure. */
export const DELIVERY_TIMEOUT_MS = 30_000;
/** CONTRACT §4: the response body kept in history is cut at 4 KiB. */
export const MAX_KEPT_RESPONSE_BYTES = 4096;

/** The HTTPS transport: one pooled Agent whose `lookup` checks each address connected to (SSRF guard); IP literals skip it, so each attempt is also checked up front. */
export function createHttpSender(options: { allowPrivateNetworks: boolean; lookup: LookupAllFunction; ca?: string[] }): Transport {
  const resolveOptions = { allowPrivate: options.allowPrivateNetworks, lookup: options.lookup };
  // `ca` (the local listener's, local-listener-sender.ts) replaces the default trust for this agent.
  const connect = buildConnector({ lookup: createGuardedLookup(resolveOptions) as never, timeout: DELIVERY_TIMEOUT_MS, ...(options.ca && { ca: options.ca }) });
  const agent = new Agent({
    // A new connection (guarded lookup, TCP, TLS) is its own span under its attempt; a kept-alive connection has none.
    connect: (opts, callback) =>
      connect(opts, spanAroundCallback('webhook.attempt.connect', () => ({ 'server.address': opts.hostname, 'server.port': Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80) }), callback)),
    headersTimeout: DELIVERY_TIMEOUT_MS,
    bodyTimeout: DELIVERY_TIMEOUT_MS,
    keepAliveTimeout: 10_000,
    connections: 64,
  });

  return {
    async send(req) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const url = new URL(req.url);
      const check = await inSpan('webhook.attempt.ssrf_check', () => ({ 'server.address': url.hostname }), async (span) => {
        const checked = await resolveAndCheck(url.hostname, resolveOptions);
        span?.setAttributes({ [ATTR.destinationAllowed]: checked.ok, ...(!checked.ok && { [ATTR.destinationRefusal]: checked.code }) });
        return checked;
      });
      if (!check.ok) return failed(check.code === 'dns_timeout' ? 'timeout' : 'network', check.message, elapsed());
      try {
        // The receiver is a customer's: the platform's trace ids stay inside it.
        const response = await unpropagated(() =>
          request(url, {
            method: 'POST',
            headers: req.headers,
            body: req.body,
            dispatcher: agent,
            signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
          }),
        );
        const responseBody = await readCapped(response.body, MAX_KEPT_RESPONSE_BYTES);
        return { outcome: { kind: 'status', statusCode: response.statusCode }, responseBody, error: null, durationMs: elapsed() };
      } catch (err) {
        return failureOf(err, elapsed());
      }
    },
    close: () => agent.close(),
  };
}

/** Leaving the loop early destroys the body (a Readable): the rest of a long answer is not read. */
async function readCapped(body: AsyncIterable<Buffer>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= max) break;
  }
  return utf8Prefix(Buffer.concat(chunks), max);
}

/** The text of the first `max` bytes, without the part of a character a cut there may leave (it would read as U+FFFD). */
export function utf8Prefix(bytes: Buffer, max: number): string {
  return new StringDecoder('utf8').write(bytes.subarray(0, max));
}

function failureOf(err: unknown, durationMs: number): SendResult {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return failed('timeout', `Timed out: no complete response within ${DELIVERY_TIMEOUT_MS / 1000} s.`, durationMs);
  }
  const code = e.code ?? e.cause?.code;
  if (code === 'EDESTINATIONREFUSED' || code === 'EDNSLOOKUPFAILED') return failed('network', e.message ?? 'Destination refused.', durationMs);
  return failed('network', `Connection failed${code ? ` (${code})` : ''}: ${e.message ?? String(err)}`, durationMs);
}

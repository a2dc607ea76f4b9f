import { once } from 'node:events';
import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import getRawBody from 'raw-body';
import { request } from 'undici';
import { verifySync, WebhookVerificationError } from '../../receivers/typescript/src/node';
import { LOCAL_LISTENER_ADDRESS } from '../domain/webhooks/local-listener';
import type { Pem } from '../infra/local-listener-ca';

export interface ListenReceiverOptions {
  /** The listener's certificate for listen.localhost (local-listener-ca.ts). */
  tls: Pem;
  /** The temporary endpoint's `whsec_` secret (known once the endpoint, which needs the port, is registered). */
  secret: () => string;
  /** `--forward-to`: answer with this app's status instead of 200. */
  forwardTo?: URL;
  /** One line per delivery. */
  report: (line: string) => void;
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** `cli listen`'s HTTPS receiver: each delivery verified with receivers/typescript as an app would, and its attempts counted here. */
export async function startListenReceiver(options: ListenReceiverOptions) {
  const attempts = new Map<string, number>();
  const server: Server = createServer({ key: options.tls.key, cert: options.tls.cert }, (req, res) => {
    void (async () => {
      const body = await getRawBody(req, { limit: MAX_BODY_BYTES });
      const header = (name: string) => {
        const value = req.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const eventId = header('webhook-id') ?? header('x-webhook-id') ?? '?';
      const attempt = (attempts.get(eventId) ?? 0) + 1;
      attempts.set(eventId, attempt);
      let signature: string;
      let verified = false;
      try {
        verifySync(body, req.headers, { secrets: [options.secret()] });
        verified = true;
        signature = 'signature verified';
      } catch (err) {
        if (!(err instanceof WebhookVerificationError)) throw err;
        signature = `signature NOT verified (${err.code}: ${err.message})`;
      }
      const line = `${new Date().toISOString().slice(11, 19)}  event ${eventId}  ${header('x-webhook-type') ?? '?'}  attempt ${attempt}  ${signature}`;
      if (options.forwardTo) {
        const answer = await forwardDelivery(options.forwardTo, req.rawHeaders, body);
        options.report(`${line}  → ${answer.status}${answer.error ? ` (${answer.error})` : ` from ${options.forwardTo.href}`}`);
        res.writeHead(answer.status, answer.contentType ? { 'Content-Type': answer.contentType } : {});
        res.end(answer.body);
        return;
      }
      options.report(`${line}  → ${verified ? 200 : 401}`);
      res.writeHead(verified ? 200 : 401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(verified ? { received: true } : { error: signature }));
    })().catch((err: unknown) => {
      options.report(`could not handle a request: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.writeHead(400);
      res.end();
    });
  });
  server.listen(0, LOCAL_LISTENER_ADDRESS);
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Beyond this the platform has given up on the attempt anyway (its time-out is 30 s). */
const FORWARD_TIMEOUT_MS = 29_000;
/** The platform keeps 4 KiB of a response; a little more is plenty to relay. */
const MAX_RELAYED_BYTES = 64 * 1024;
/** Hop-by-hop headers (RFC 9110 §7.6.1) and the host, which belong to one connection, not to the delivery. */
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection', 'expect']);

/** Exact bytes and headers (order and case kept), the app's answer passed back as it is; an unreachable app is a 502, so the platform retries. */
async function forwardDelivery(to: URL, rawHeaders: string[], body: Buffer) {
  const headers: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!NOT_FORWARDED.has((rawHeaders[i] as string).toLowerCase())) headers.push(rawHeaders[i] as string, rawHeaders[i + 1] as string);
  }
  try {
    const response = await request(to, { method: 'POST', headers, body, signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      if (size < MAX_RELAYED_BYTES) chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    const contentType = response.headers['content-type'];
    return { status: response.statusCode, contentType: typeof contentType === 'string' ? contentType : undefined, body: Buffer.concat(chunks).subarray(0, MAX_RELAYED_BYTES) };
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : (e.code ?? e.cause?.code ?? e.message ?? String(err));
    const error = `${to.href} unreachable: ${why}`;
    return { status: 502, contentType: 'application/json', body: Buffer.from(JSON.stringify({ error: `cli listen: ${error}` })), error };
  }
}

import { once } from 'node:events';
import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import getRawBody from 'raw-body';
import { verifySync, WebhookVerificationError } from '../../receivers/typescript/src/node';
import { LOCAL_LISTENER_ADDRESS } from '../domain/webhooks/local-listener';
import type { Pem } from '../infra/local-listener-ca';
import { forwardDelivery } from './listen-forward';

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

import { once } from 'node:events';
import http, { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from '../domain/error-codes';
import { answerUnparsedRequests } from '../transport/http/unparsed-request';
import { settlesBy } from './stop-budget';

export type ApiServer = Awaited<ReturnType<typeof listenApi>>;

/** Node's close leaves keep-alive connections open: a call after the stop began gets a 503 closing it; the stop waits for calls in flight. */
export async function listenApi(handle: (req: IncomingMessage, res: ServerResponse) => void, port: number, host: string) {
  let stopping = false;
  let refused = 0;
  const inFlight = new Set<ServerResponse>();
  const server = http.createServer((req, res) => {
    if (stopping) {
      refused++;
      const code: ErrorCode = 'service_unavailable';
      res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close', 'Retry-After': '1' });
      res.end(JSON.stringify({ error: 'This API process is stopping; nothing was stored. Retry with the same idempotency key.', code }));
      return;
    }
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    handle(req, res);
  });
  answerUnparsedRequests(server);
  server.listen(port, host);
  await once(server, 'listening');
  return {
    server,
    /**
     * Calls still open at `deadline` are cut; an event stored for one is in the outbox's watermark. Answers: calls in flight
     * when the stop began that were answered or cut, and calls refused (503) that came on an open connection after it began.
     */
    async stop(deadline: number) {
      stopping = true;
      const atStop = inFlight.size;
      // Answers still to be sent end their connection (headers already sent cannot change).
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let cut = 0;
      if (!(await settlesBy(closed, deadline))) {
        cut = inFlight.size;
        server.closeAllConnections();
        await closed;
      }
      return { answered: atStop - cut, cut, refused };
    },
  };
}

import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { readTestCertificate } from './test-ca';

export interface ReceivedRequest {
  at: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

/** `delayMs`: answer only after that long (a slow receiver); `until`: only once it settles (held by the test); 'hang': never answer. */
export type Reply = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number; until?: Promise<unknown> } | 'hang';

/**
 * A real HTTPS receiver on 127.0.0.1 with the test certificate. `respond` decides each
 * answer (default 200); every request is recorded with its exact raw body.
 */
export async function startReceiver(respond: (req: ReceivedRequest, index: number) => Reply = () => ({ status: 200 })) {
  const { cert, key } = readTestCertificate();
  const received: ReceivedRequest[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const server = https.createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record: ReceivedRequest = {
        at: Date.now(),
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(record);
      const reply = respond(record, received.length - 1);
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      const answer = () => {
        res.writeHead(reply.status, reply.headers ?? { 'Content-Type': 'text/plain' });
        res.end(reply.body ?? 'ok');
      };
      const answerOnce = (held: Promise<unknown>) => {
        hanging.add(res);
        void held.finally(() => {
          hanging.delete(res);
          if (!res.destroyed) answer();
        });
      };
      if (reply.delayMs) answerOnce(new Promise((r) => setTimeout(r, reply.delayMs)));
      else if (reply.until) answerOnce(reply.until);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    received,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

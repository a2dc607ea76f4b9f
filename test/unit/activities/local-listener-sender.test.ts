import { mkdtemp } from 'node:fs/promises';
import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Transport } from '../../../activities/transport';
import { withLocalListener } from '../../../activities/local-listener-sender';
import { ensureLocalListenerCa, issueListenerCertificate, Pem } from '../../../src/infra/local-listener-ca';

type SendRequest = Parameters<Transport['send']>[0];

/** The sender's side of DELIVERY_LOCAL_LISTENER: listen.localhost reaches 127.0.0.1 with the listener CA only. */
describe('withLocalListener', () => {
  let ca: Pem;
  let otherCa: Pem;
  const servers: Server[] = [];

  beforeAll(async () => {
    ca = await ensureLocalListenerCa(await mkdtemp(path.join(os.tmpdir(), 'listener-ca-')));
    otherCa = await ensureLocalListenerCa(await mkdtemp(path.join(os.tmpdir(), 'other-ca-')));
  });
  afterAll(async () => {
    for (const s of servers) s.closeAllConnections();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  async function serve(tls: Pem, seen: string[]): Promise<number> {
    const server = createServer(tls, (req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.host}`);
      res.writeHead(201).end('made');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  function recordingInner(): Transport & { sent: SendRequest[] } {
    const sent: SendRequest[] = [];
    return { sent, send: async (req) => (sent.push(req), { outcome: { kind: 'status' as const, statusCode: 299 }, responseBody: 'inner', error: null, durationMs: 0 }), close: async () => undefined };
  }

  const post = (url: string): SendRequest => ({ url, headers: { 'Content-Type': 'application/json' }, body: '{}' });

  it('delivers to listen.localhost on 127.0.0.1 when the certificate comes from the listener CA', async () => {
    const seen: string[] = [];
    const port = await serve(await issueListenerCertificate(ca), seen);
    const sender = withLocalListener(recordingInner(), { readCaCert: async () => ca.cert });
    try {
      expect(await sender.send(post(`https://listen.localhost:${port}/hook`))).toMatchObject({ outcome: { kind: 'status', statusCode: 201 }, responseBody: 'made', error: null });
      expect(seen).toEqual([`POST /hook listen.localhost:${port}`]);
    } finally {
      await sender.close();
    }
  });

  it('refuses a listen.localhost server whose certificate comes from another CA, before sending anything', async () => {
    const seen: string[] = [];
    const port = await serve(await issueListenerCertificate(otherCa), seen);
    const sender = withLocalListener(recordingInner(), { readCaCert: async () => ca.cert });
    try {
      const result = await sender.send(post(`https://listen.localhost:${port}/`));
      expect(result.outcome.kind).toBe('network');
      expect(result.error).toMatch(/certificate/i);
      expect(seen).toEqual([]);
    } finally {
      await sender.close();
    }
  });

  it('fails the attempt without connecting when no listener CA exists yet', async () => {
    const sender = withLocalListener(recordingInner(), { readCaCert: async () => null });
    expect(await sender.send(post('https://listen.localhost:1/'))).toMatchObject({ outcome: { kind: 'network' }, error: expect.stringMatching(/No local listener CA/) });
    await sender.close();
  });

  it.each(['https://127.0.0.1:8443/', 'https://localhost:8443/', 'https://a.listen.localhost:8443/', 'https://example.com/hook'])(
    'leaves %s to the usual sender and its SSRF rules',
    async (url) => {
      const inner = recordingInner();
      const sender = withLocalListener(inner, { readCaCert: async () => ca.cert });
      expect((await sender.send(post(url))).outcome).toEqual({ kind: 'status', statusCode: 299 });
      expect(inner.sent.map((r) => r.url)).toEqual([url]);
    },
  );
});

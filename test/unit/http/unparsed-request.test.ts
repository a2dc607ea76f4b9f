import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerUnparsedRequests } from '../../../src/transport/http/unparsed-request';
import { lastAnswer, rawExchange } from '../../support/raw-http';

/** A request Node's parser refuses, on a server that answers it as the API does. */
describe('a request Node cannot parse', () => {
  let server: http.Server;
  async function listen(options: http.ServerOptions = {}): Promise<number> {
    server = http.createServer(options, (_req, res) => res.end('{}'));
    answerUnparsedRequests(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return (server.address() as AddressInfo).port;
  }
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const openConnections = () => new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

  it('is answered, and its connection closed by the server even while the client keeps its side open', async () => {
    // Node's own time-outs (60 s for headers) would close it long after the second this test waits.
    const { raw, socket } = await rawExchange(await listen(), ['NOT HTTP\r\n\r\n'], { keepOpen: true });
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    for (let i = 0; i < 50 && (await openConnections()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await openConnections()).toBe(0);
    socket.destroy();
  });

  it('whose headers do not arrive in time is answered 408 request_timeout in the JSON error body', async () => {
    // Node's header deadline shortened from its 60 s so that a slow request meets it within the test.
    const port = await listen({ headersTimeout: 500, requestTimeout: 1_000, connectionsCheckingInterval: 50 });
    const { raw, socket } = await rawExchange(port, ['GET / HTTP/1.1\r\nHost: x\r\n'], { keepOpen: true });
    socket.destroy();
    expect(raw).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(lastAnswer(raw).body).toEqual({ error: 'The request was not received in time.', code: 'request_timeout' });
  });

  it("whose headers are over the server's limit names that limit", async () => {
    const port = await listen({ maxHeaderSize: 8 * 1024 });
    const { raw } = await rawExchange(port, [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(9 * 1024)}\r\n\r\n`]);
    expect(raw).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(lastAnswer(raw).body).toEqual({ error: 'The request line and headers together are over 8 KiB.', code: 'headers_too_large' });
  });
});

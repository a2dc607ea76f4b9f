import { once } from 'node:events';
import http from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerUnparsedRequest } from '../../../src/transport/http/unparsed-request';

/** A request Node's parser refuses, on a server that answers it as the API does. */
describe('a request Node cannot parse', () => {
  let server: http.Server;
  beforeEach(async () => {
    // Node's header deadline shortened from its 60 s so that a slow request meets it within the test.
    server = http.createServer({ headersTimeout: 500, requestTimeout: 1_000, connectionsCheckingInterval: 50 }, (_req, res) => res.end('{}'));
    server.on('clientError', answerUnparsedRequest);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const openConnections = () => new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

  it('is answered, and its connection closed by the server even while the client keeps its side open', async () => {
    // allowHalfOpen: the client does not end its side when the server ends its own (a net socket's default would).
    const client = connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
    client.setEncoding('utf8');
    client.write('NOT HTTP\r\n\r\n');
    let raw = '';
    client.on('data', (chunk: string) => (raw += chunk));
    await once(client, 'end');
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    for (let i = 0; i < 50 && (await openConnections()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await openConnections()).toBe(0);
    client.destroy();
  });

  it('whose headers do not arrive in time is answered 408 request_timeout in the JSON error body', async () => {
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    client.setEncoding('utf8');
    client.write('GET / HTTP/1.1\r\nHost: x\r\n');
    let raw = '';
    client.on('data', (chunk: string) => (raw += chunk));
    await once(client, 'close');
    expect(raw).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'The request was not received in time.', code: 'request_timeout' });
  });
});

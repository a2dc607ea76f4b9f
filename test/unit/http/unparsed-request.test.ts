import { once } from 'node:events';
import http from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerUnparsedRequest } from '../../../src/transport/http/unparsed-request';

/** A request Node's parser refuses, on a server that answers it as the API does. */
describe('a request Node cannot parse', () => {
  let server: http.Server;
  beforeEach(async () => {
    server = http.createServer((_req, res) => res.end('{}'));
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
});

import net from 'node:net';
import { freePort } from '../../../src/infra/embedded-servers';

/** Linux's ephemeral range (ip_local_port_range), where outbound sockets and `listen(0)` take their ports. */
const EPHEMERAL_FROM = 32_768;

describe('a free port for an embedded server of a test', () => {
  it('is below the ephemeral range, so no outbound connection can take it before the server binds it', async () => {
    for (let i = 0; i < 20; i++) expect(await freePort()).toBeLessThan(EPHEMERAL_FROM);
  });

  it('can be listened on', async () => {
    const port = await freePort();
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});

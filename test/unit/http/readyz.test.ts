import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../../../src/infra/logger';
import { createApp } from '../../../src/transport/http/app';
import { healthz, readyz } from '../../../src/transport/http/routes/health';

/** /readyz answers 503 and names the dependency that does not answer. */
describe('health probes', () => {
  async function probe(checks: { mongo: () => Promise<void>; temporal: () => Promise<void> }, path: string) {
    const app = createApp({ logger: createLogger('silent'), routes: [healthz, readyz(checks)] as never });
    const server = http.createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
      return { status: res.status, body: (await res.json()) as any };
    } finally {
      server.close();
    }
  }
  const ok = async () => undefined;
  const down = async () => {
    throw new Error('connection refused');
  };

  it('answers /healthz 200 whatever the dependencies', async () => {
    expect(await probe({ mongo: down, temporal: down }, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('answers /readyz 200 when MongoDB and Temporal answer', async () => {
    expect(await probe({ mongo: ok, temporal: ok }, '/readyz')).toEqual({ status: 200, body: { status: 'ok', checks: { mongo: 'ok', temporal: 'ok' } } });
  });

  it('answers /readyz 503 naming MongoDB when it does not answer', async () => {
    expect(await probe({ mongo: down, temporal: ok }, '/readyz')).toEqual({
      status: 503,
      body: { status: 'unavailable', checks: { mongo: 'unavailable', temporal: 'ok' } },
    });
  });

  it('answers /readyz 503 naming Temporal when it hangs', async () => {
    const res = await probe({ mongo: ok, temporal: () => new Promise(() => undefined) }, '/readyz');
    expect(res).toEqual({ status: 503, body: { status: 'unavailable', checks: { mongo: 'ok', temporal: 'unavailable' } } });
  });
});

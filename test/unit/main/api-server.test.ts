import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiServer, listenApi } from '../../../src/main/api-server';
import { settlesBy } from '../../../src/main/stop-budget';

/** A handler that holds each call until released (the call is then "in flight"). */
function heldHandler() {
  const held: Array<() => void> = [];
  let arrived!: () => void;
  let arrival = new Promise<void>((r) => (arrived = r));
  return {
    handle: (_req: http.IncomingMessage, res: http.ServerResponse) => {
      held.push(() => res.end('ok'));
      arrived();
    },
    /** Resolves once a call is held. */
    nextArrival: async () => {
      await arrival;
      arrival = new Promise<void>((r) => (arrived = r));
    },
    releaseAll: () => held.splice(0).forEach((answer) => answer()),
  };
}

function portOf(server: ApiServer): number {
  return (server.server.address() as AddressInfo).port;
}

function get(port: number, agent: http.Agent): Promise<{ status: number; connection?: string; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, agent }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  });
}

describe('the API server stopping', () => {
  const agents: http.Agent[] = [];
  const keepAlive = () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    return agent;
  };
  afterAll(() => agents.forEach((a) => a.destroy()));

  it('answers the call in flight, ends its keep-alive connection with it, and takes no call after', async () => {
    const handler = heldHandler();
    const server = await listenApi(handler.handle, 0, '127.0.0.1');
    const port = portOf(server);
    const agent = keepAlive();
    const inFlight = get(port, agent);
    await handler.nextArrival();
    const stopped = server.stop(Date.now() + 60_000);
    handler.releaseAll();
    expect(await inFlight).toEqual({ status: 200, connection: 'close', body: 'ok' });
    expect(await stopped).toEqual({ answered: 1, cut: 0, refused: 0 });
    // A keep-alive client cannot hold the server open with more calls: the next one finds it closed.
    expect(await get(port, agent)).toEqual({ error: 'ECONNREFUSED' });
  });

  it('cuts a call still open at the deadline and says so (it was never answered, so never acknowledged)', async () => {
    const handler = heldHandler();
    const server = await listenApi(handler.handle, 0, '127.0.0.1');
    const inFlight = get(portOf(server), keepAlive());
    await handler.nextArrival();
    expect(await server.stop(Date.now() + 50)).toEqual({ answered: 0, cut: 1, refused: 0 });
    expect(await inFlight).toEqual({ error: 'ECONNRESET' });
  });
});

describe('settlesBy', () => {
  it('says whether the work settled, failed or not, before the deadline', async () => {
    expect(await settlesBy(Promise.resolve(), Date.now() + 1_000)).toBe(true);
    expect(await settlesBy(Promise.reject(new Error('its own to report')), Date.now() + 1_000)).toBe(true);
    expect(await settlesBy(new Promise(() => undefined), Date.now() + 20)).toBe(false);
  });
});

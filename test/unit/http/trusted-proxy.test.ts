import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from '../../../src/transport/http/app';
import { clientIp } from '../../../src/transport/http/client-ip';

/** The app as the platform builds it, answering with the client address its per-IP limits would use. */
async function serve(options: { trustProxy: boolean; trustProxyHops?: number }) {
  const app = createApp({
    logger: pino({ level: 'silent' }),
    routes: [],
    ...options,
    before: [
      async (ctx) => {
        ctx.body = { ip: clientIp(ctx) };
      },
    ],
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const ipFor = async (forwardedFor?: string) =>
    ((await (await fetch(url, { headers: forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {} })).json()) as { ip: string }).ip;
  return { ipFor, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('client address behind trusted proxies', () => {
  it.each([
    ['without TRUST_PROXY, X-Forwarded-For is ignored', { trustProxy: false }, [['203.0.113.5', '127.0.0.1']]],
    [
      'with one trusted hop, the entry the proxy appended (the last) is the client; what the client wrote is ignored',
      { trustProxy: true, trustProxyHops: 1 },
      [
        ['198.51.100.7', '198.51.100.7'],
        ['1.2.3.4, 198.51.100.7', '198.51.100.7'],
        ['9.9.9.9, 8.8.8.8, 198.51.100.7', '198.51.100.7'],
      ],
    ],
    [
      'with two trusted hops (e.g. a CDN, then a load balancer), the second entry from the right is the client',
      { trustProxy: true, trustProxyHops: 2 },
      [['1.2.3.4, 198.51.100.7, 10.0.0.2', '198.51.100.7']],
    ],
  ] as const)('%s', async (_name, options, cases) => {
    const s = await serve(options);
    try {
      for (const [forwardedFor, expected] of cases) expect(await s.ipFor(forwardedFor)).toBe(expected);
    } finally {
      await s.close();
    }
  });
});

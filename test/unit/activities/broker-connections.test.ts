import { createConnectionPool } from '../../../activities/broker-connections';
import type { BrokerTarget } from '../../../activities/transport';

/** One connection per destination (config and credentials), shared, closed once idle, dropped when gone or failed. */
describe('broker connection pool', () => {
  const IDLE_MS = 60_000;
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const target = (password = 'p', exchange = 'events'): BrokerTarget => ({
    destination: { type: 'rabbitmq', config: { uri: 'amqps://mq.example.com/', exchange, routing_key: '' } },
    credentials: { username: 'u', password },
    eventId: 1,
    endpointId: 'ep_1',
    fifo: false,
  });

  function pool() {
    let opened = 0;
    const closed: number[] = [];
    const gones: Array<() => void> = [];
    let failNext = false;
    const p = createConnectionPool<number>({
      async open(_target, gone) {
        if (failNext) {
          failNext = false;
          throw new Error('refused');
        }
        gones.push(gone);
        return ++opened;
      },
      async close(connection) {
        closed.push(connection);
      },
      idleMs: IDLE_MS,
    });
    return { p, closed, gones, opened: () => opened, failNextOpen: () => (failNext = true) };
  }
  const settle = () => jest.advanceTimersByTimeAsync(0);

  it('shares one connection per destination; other config or other credentials open another', async () => {
    const { p, opened } = pool();
    const seen = await Promise.all([p.use(target(), async (c) => c), p.use(target(), async (c) => c)]);
    expect(seen).toEqual([1, 1]);
    expect(await p.use(target('other password'), async (c) => c)).toBe(2);
    expect(await p.use(target('p', 'other exchange'), async (c) => c)).toBe(3);
    expect(opened()).toBe(3);
    await p.close();
  });

  it('closes a connection unused for the idle time, never one in use, and opens again on the next use', async () => {
    const { p, closed } = pool();
    await p.use(target(), async () => undefined);
    let release!: () => void;
    const busy = p.use(target('busy'), () => new Promise<void>((r) => (release = r)));
    await settle();
    await jest.advanceTimersByTimeAsync(IDLE_MS * 2);
    expect(closed).toEqual([1]);
    release();
    await busy;
    await jest.advanceTimersByTimeAsync(IDLE_MS * 2);
    expect(closed).toEqual([1, 2]);
    expect(await p.use(target(), async (c) => c)).toBe(3);
    await p.close();
  });

  it('drops a connection the broker closed, one discarded, and an open that failed', async () => {
    const { p, closed, gones, failNextOpen } = pool();
    await p.use(target(), async () => undefined);
    gones[0]!();
    await settle();
    expect(closed).toEqual([1]);
    expect(await p.use(target(), async (c) => c)).toBe(2);
    p.discard(target());
    await settle();
    expect(closed).toEqual([1, 2]);
    failNextOpen();
    await expect(p.use(target(), async (c) => c)).rejects.toThrow('refused');
    expect(await p.use(target(), async (c) => c)).toBe(3);
    await p.close();
    expect(closed).toEqual([1, 2, 3]);
  });
});

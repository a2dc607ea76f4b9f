import { createDestinationTransports, type BrokerPublisher } from '../../../activities/destination-transports';
import type { BrokerTarget, OutgoingMessage, Transport } from '../../../activities/transport';

/** The transport chosen per endpoint, and what every broker publish gets whatever its type: SSRF checks, the 30 s bound, errors without credentials. */
describe('destination transports', () => {
  const PASSWORD = 'hunter2-secret';
  const message = (uri = 'amqps://mq.example.com/'): OutgoingMessage => ({
    url: `${uri} exchange "e" routing key ""`,
    headers: { 'X-Webhook-ID': '1' },
    body: '{}',
    broker: {
      destination: { type: 'rabbitmq', config: { uri, exchange: 'e', routing_key: '' } },
      credentials: { username: 'u', password: PASSWORD },
      eventId: 1,
      endpointId: 'ep_1',
      fifo: false,
    },
  });

  function setUp(publish: BrokerPublisher['publish'], options: { allowPrivateNetworks?: boolean; addresses?: string[] } = {}) {
    const calls = { https: 0, published: 0, abandoned: [] as BrokerTarget[] };
    const https: Transport = {
      async send() {
        calls.https += 1;
        return { outcome: { kind: 'status', statusCode: 200 }, responseBody: '', error: null, durationMs: 1 };
      },
      close: async () => undefined,
    };
    const publisher = (): BrokerPublisher => ({
      async publish(m, signal) {
        calls.published += 1;
        return publish(m, signal);
      },
      abandon: (target) => void calls.abandoned.push(target),
      close: async () => undefined,
    });
    const lookup = async () => (options.addresses ?? ['93.184.216.34']).map((address) => ({ address, family: 4 }));
    const transport = createDestinationTransports(https, { rabbitmq: publisher(), kafka: publisher(), sqs: publisher() }, { allowPrivateNetworks: options.allowPrivateNetworks ?? false, lookup });
    return { transport, calls };
  }

  it('sends an HTTPS endpoint by HTTPS, and a broker endpoint by its publisher: confirmed', async () => {
    const { transport, calls } = setUp(async () => undefined);
    await transport.send({ url: 'https://example.com/', headers: {}, body: '{}' });
    expect(calls).toMatchObject({ https: 1, published: 0 });
    const result = await transport.send(message());
    expect(result).toMatchObject({ outcome: { kind: 'confirmed' }, error: null });
    expect(calls.published).toBe(1);
  });

  it('refuses a broker host that resolves to a private address at the attempt, publishing nothing', async () => {
    const { transport, calls } = setUp(async () => undefined, { addresses: ['10.0.0.7'] });
    const result = await transport.send(message());
    expect(result).toMatchObject({ outcome: { kind: 'network' }, error: expect.stringContaining('private or reserved address') });
    const literal = await transport.send(message('amqps://169.254.169.254/'));
    expect(literal.outcome.kind).toBe('network');
    expect(calls.published).toBe(0);
  });

  it("fails a refused publish with the broker's error, never a credential in it, and drops its connection", async () => {
    const { transport, calls } = setUp(async () => {
      throw new Error(`ACCESS_REFUSED - Login was refused for password ${PASSWORD}`);
    });
    const result = await transport.send(message());
    expect(result.outcome.kind).toBe('network');
    expect(result.error).toBe('The broker did not confirm the message: ACCESS_REFUSED - Login was refused for password [credential]');
    expect(calls.abandoned).toHaveLength(1);
  });

  it('fails a publish the broker leaves unconfirmed after 30 s, and drops its connection', async () => {
    jest.useFakeTimers();
    try {
      const { transport, calls } = setUp(() => new Promise<void>(() => undefined));
      const sending = transport.send(message());
      await jest.advanceTimersByTimeAsync(30_000);
      expect(await sending).toMatchObject({ outcome: { kind: 'timeout' }, error: 'Timed out: the broker did not confirm the message within 30 s.' });
      expect(calls.abandoned).toHaveLength(1);
    } finally {
      jest.useRealTimers();
    }
  });
});

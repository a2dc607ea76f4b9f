import net from 'node:net';
import { brokerAccount, registerDestination, sendEvent, settled } from '../support/broker-endpoints';
import { eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';

/**
 * A broker that accepts connections and never answers (RabbitMQ, Kafka and SQS alike): each attempt ends within the
 * attempt's 30 s as a failed attempt, and every socket the platform opened to it is closed again: it costs a timer and
 * a socket while it hangs, nothing that stays.
 */
describe('a broker that hangs', () => {
  const fixture = receivingPlatform();
  let server: net.Server;
  const open = new Set<net.Socket>();
  /** What each client sent first ("AMQP", "POST", Kafka's binary request): a socket left open says whose it is. */
  const firstBytes = new WeakMap<net.Socket, string>();
  let accepted = 0;

  beforeAll(async () => {
    server = net.createServer((socket) => {
      accepted += 1;
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
      socket.once('data', (first) => firstBytes.set(socket, first.subarray(0, 4).toString('latin1')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of open) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails each attempt within the 30 s, and leaves no socket open once the delivery has ended', async () => {
    const { port } = server.address() as net.AddressInfo;
    const { api } = await brokerAccount(fixture.platform);
    const destinations = [
      { type: 'rabbitmq', config: { uri: `amqp://127.0.0.1:${port}/`, exchange: 'events' }, credentials: { username: 'u', password: 'p' } },
      { type: 'kafka', config: { brokers: [`127.0.0.1:${port}`], topic: 'events', tls: false } },
      { type: 'sqs', config: { queue_url: `http://127.0.0.1:${port}/000000000000/events`, region: 'eu-west-1' }, credentials: { access_key_id: 'a', secret_access_key: 'b' } },
    ];
    const endpoints = await Promise.all(destinations.map((d) => registerDestination(api, d)));
    const eventId = await sendEvent(api);
    const firsts = await Promise.all(
      endpoints.map(async (endpoint) => {
        const event = await eventually(async () => {
          const read = (await api.get(`/api/v1/webhooks/events/${eventId}`)).body;
          const delivery = read.deliveries.find((d: { endpoint_id: string }) => d.endpoint_id === endpoint.id);
          return delivery?.attempt_count >= 1 ? delivery : undefined;
        }, 60_000);
        return event.attempts[0];
      }),
    );
    expect(accepted).toBeGreaterThanOrEqual(3);
    for (const attempt of firsts) {
      expect(attempt).toMatchObject({ status_code: null, error: expect.any(String) });
      // Bounded by the attempt's deadline (the client's own connect time-out may end it first).
      expect(attempt.duration_ms).toBeLessThanOrEqual(31_000);
    }
    // Deleted: the deliveries end, and whatever attempt was in flight ends within its own 30 s.
    for (const endpoint of endpoints) expect((await api.delete(`/api/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(204);
    for (const endpoint of endpoints) await settled(fixture.platform, eventId, endpoint.id);
    await eventually(async () => open.size === 0, 75_000, 500).catch(() => undefined);
    expect([...open].map((socket) => JSON.stringify(firstBytes.get(socket) ?? 'nothing sent'))).toEqual([]);
  }, 240_000);
});

import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { verifySync } from '../../receivers/typescript/src/node';
import { brokerForTests } from '../support/brokers';
import { drainQueue } from '../support/rabbitmq-queue';
import { brokerAccount, deliveredAfterDowntime, deliveryOf, everyRecord, registerDestination, sendEvent, settled } from '../support/broker-endpoints';
import { receivingPlatform } from '../support/receiving-platform';

/** Endpoints whose deliveries are published to a real RabbitMQ, through the platform as `npm start` wires it. */
describe('RabbitMQ destinations', () => {
  const PASSWORD = `rmq-${randomUUID()}`;
  const broker = brokerForTests('rabbitmq', { rabbitMqUser: { username: 'platform-test', password: PASSWORD } });
  const fixture = receivingPlatform();

  const uri = () => {
    const address = new URL(broker().address);
    return `amqp://${address.host}/`;
  };
  const destination = (exchange: string, routingKey = 'orders') => ({
    type: 'rabbitmq',
    config: { uri: uri(), exchange, routing_key: routingKey },
    credentials: { username: 'platform-test', password: PASSWORD },
  });

  /** A durable exchange with a durable queue bound to it by `routingKey`; messages read one by one with `get`. */
  async function boundQueue(routingKey = 'orders') {
    const exchange = `ex-${randomUUID()}`;
    const queue = `q-${randomUUID()}`;
    const connection = await amqp.connect(broker().address);
    try {
      const channel = await connection.createChannel();
      await channel.assertExchange(exchange, 'direct', { durable: true });
      await channel.assertQueue(queue, { durable: true });
      await channel.bindQueue(queue, exchange, routingKey);
    } finally {
      await connection.close();
    }
    return { exchange, queue };
  }

  const drain = (queue: string) => drainQueue(broker().address, queue);

  it('publishes each delivery once, persistent and confirmed, with the body and signed headers a receiver verifies', async () => {
    const { exchange, queue } = await boundQueue();
    const { api } = await brokerAccount(fixture.platform);
    const endpoint = await registerDestination(api, destination(exchange));
    const eventId = await sendEvent(api);
    const delivery = await deliveryOf(api, eventId, (d) => d.status === 'succeeded');
    await settled(fixture.platform, eventId, endpoint.id);

    expect(delivery.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: null, error: null, response_body: null })]);
    expect(delivery.url).toBe(`${uri()} exchange "${exchange}" routing key "orders"`);
    const messages = await drain(queue);
    expect(messages).toHaveLength(1);
    const [message] = messages as [amqp.GetMessage];
    expect(message.properties).toMatchObject({ deliveryMode: 2, contentType: 'application/json', messageId: String(eventId) });
    const headers = message.properties.headers as Record<string, string>;
    expect(headers['X-Webhook-ID']).toBe(String(eventId));
    expect(JSON.parse(message.content.toString())).toMatchObject({ id: eventId, type: 'order.created', data: { order_id: 42 } });
    // Both schemes verify from the message's headers map, as from an HTTPS request's.
    expect(verifySync(message.content, headers, { secrets: endpoint.secret }).event?.id).toBe(eventId);
    expect(verifySync(message.content, headers, { secrets: endpoint.secret, scheme: 'spec' }).event?.id).toBe(eventId);
  });

  it('fails an attempt the broker does not confirm (no such exchange; a message no queue takes), with its error, and retries it', async () => {
    const { api } = await brokerAccount(fixture.platform);
    const missing = await registerDestination(api, destination(`missing-${randomUUID()}`), { events: ['missing.*'] });
    const unroutable = (await boundQueue('elsewhere')).exchange;
    const nowhere = await registerDestination(api, destination(unroutable, 'orders'), { events: ['nowhere.*'] });
    const missingEvent = await sendEvent(api, 'missing.one');
    const nowhereEvent = await sendEvent(api, 'nowhere.one');

    const refused = await deliveryOf(api, missingEvent, (d) => d.attempt_count >= 1);
    expect(refused.status).toBe('retrying');
    expect(refused.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^The broker did not confirm the message: .*NOT_FOUND - no exchange 'missing-/) });
    const returned = await deliveryOf(api, nowhereEvent, (d) => d.attempt_count >= 1);
    expect(returned.status).toBe('retrying');
    expect(returned.attempts[0].error).toMatch(/no queue is bound to exchange .* \(returned unroutable\)/);
    for (const endpoint of [missing, nowhere]) expect((await api.delete(`/api/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(204);
  });

  it('retries on the schedule while the broker is down, and delivers once when it is up again', async () => {
    const { exchange, queue } = await boundQueue();
    const { api } = await brokerAccount(fixture.platform);
    const endpoint = await registerDestination(api, destination(exchange));
    const eventId = await deliveredAfterDowntime(fixture.platform, api, broker(), endpoint.id, /ECONNREFUSED/);
    const messages = await drain(queue);
    expect(messages.map((m) => m.properties.messageId)).toEqual([String(eventId)]);
  }, 150_000);

  it('keeps the order of a FIFO endpoint: one at a time, in ingest order', async () => {
    const { exchange, queue } = await boundQueue();
    const { api } = await brokerAccount(fixture.platform);
    const endpoint = await registerDestination(api, destination(exchange), { ordering: 'fifo' });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await sendEvent(api, 'order.created', { n: i }));
    for (const id of ids) await deliveryOf(api, id, (d) => d.status === 'succeeded');
    for (const id of ids) await settled(fixture.platform, id, endpoint.id);
    expect((await drain(queue)).map((m) => Number(m.properties.messageId))).toEqual(ids);
  });

  it('holds deliveries while the endpoint is paused and publishes them once it is resumed', async () => {
    const { exchange, queue } = await boundQueue();
    const { api } = await brokerAccount(fixture.platform);
    const endpoint = await registerDestination(api, destination(exchange));
    expect((await api.post(`/api/v1/webhooks/endpoints/${endpoint.id}/pause`)).status).toBe(200);
    const eventId = await sendEvent(api);
    const waiting = await deliveryOf(api, eventId, (d) => d.paused === true);
    expect(waiting.attempt_count).toBe(0);
    expect(await drain(queue)).toEqual([]);
    expect((await api.post(`/api/v1/webhooks/endpoints/${endpoint.id}/resume`)).status).toBe(200);
    await deliveryOf(api, eventId, (d) => d.status === 'succeeded');
    await settled(fixture.platform, eventId, endpoint.id);
    expect((await drain(queue)).map((m) => m.properties.messageId)).toEqual([String(eventId)]);
  });

  it('retry now, after a PATCH to an exchange that exists (credentials kept), publishes the waiting delivery at once', async () => {
    const { exchange, queue } = await boundQueue();
    const { api } = await brokerAccount(fixture.platform);
    const endpoint = await registerDestination(api, destination(`missing-${randomUUID()}`));
    const eventId = await sendEvent(api);
    // Attempt 4 would come 30 s after attempt 3.
    await deliveryOf(api, eventId, (d) => d.status === 'retrying' && d.attempt_count === 3);
    const { credentials: _kept, ...withoutCredentials } = destination(exchange);
    expect((await api.patch(`/api/v1/webhooks/endpoints/${endpoint.id}`, { destination: withoutCredentials })).status).toBe(200);
    expect((await api.post(`/api/v1/webhooks/events/${eventId}/deliveries/${endpoint.id}/retry-now`)).status).toBe(202);
    const delivered = await deliveryOf(api, eventId, (d) => d.status === 'succeeded', 20_000);
    expect(delivered.attempt_count).toBe(4);
    await settled(fixture.platform, eventId, endpoint.id);
    expect((await drain(queue)).map((m) => m.properties.messageId)).toEqual([String(eventId)]);
  });

  it('keeps the credentials out of every record', async () => {
    expect(await everyRecord(fixture.platform)).not.toContain(PASSWORD);
  });
});

import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { brokerForTests } from '../support/brokers';

/** The RabbitMQ that `npm test` provisions and starts: a persistent message, confirmed by the broker, comes back whole. */
describe('embedded RabbitMQ', () => {
  const broker = brokerForTests('rabbitmq');

  it('confirms a published message and delivers its body and headers to a consumer', async () => {
    const connection = await amqp.connect(broker().address);
    try {
      const channel = await connection.createConfirmChannel();
      const queue = `smoke-${randomUUID()}`;
      await channel.assertQueue(queue, { durable: true });
      const body = JSON.stringify({ type: 'order.created', data: { order_id: 42 } });
      const headers = { 'X-Webhook-ID': 'evt_1', 'X-Webhook-Signature': 'v1,abc=' };
      const received = new Promise<amqp.ConsumeMessage>((resolve) => {
        void channel.consume(queue, (message) => message && resolve(message));
      });

      channel.publish('', queue, Buffer.from(body), { persistent: true, contentType: 'application/json', headers });
      await channel.waitForConfirms();

      const message = await received;
      expect(message.content.toString()).toBe(body);
      expect(message.properties.headers).toEqual(headers);
      expect(message.properties.deliveryMode).toBe(2);
      channel.ack(message);
      await channel.close();
    } finally {
      await connection.close();
    }
  });

  it('keeps a confirmed persistent message while it is down, and delivers it once up again', async () => {
    const queue = `restart-${randomUUID()}`;
    const body = 'stored before the restart';
    const publisher = await amqp.connect(broker().address);
    try {
      const channel = await publisher.createConfirmChannel();
      await channel.assertQueue(queue, { durable: true });
      channel.publish('', queue, Buffer.from(body), { persistent: true });
      await channel.waitForConfirms();
    } finally {
      await publisher.close();
    }

    await broker().down();
    await expect(amqp.connect(broker().address)).rejects.toThrow(/ECONNREFUSED/);
    await broker().up();

    const consumer = await amqp.connect(broker().address);
    try {
      const channel = await consumer.createChannel();
      const message = await channel.get(queue, { noAck: true });
      expect(message && message.content.toString()).toBe(body);
    } finally {
      await consumer.close();
    }
  });
});

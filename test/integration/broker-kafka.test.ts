import { randomUUID } from 'node:crypto';
import { Kafka, KafkaMessage, logLevel, Partitioners } from 'kafkajs';
import { brokerForTests } from '../support/brokers';

/** The Kafka broker (KRaft, one node) that `npm test` provisions and starts: a message acknowledged by all in-sync replicas comes back whole. */
describe('embedded Kafka', () => {
  const broker = brokerForTests('kafka');

  it('acknowledges a produced message and delivers its key, value and headers to a consumer', async () => {
    const kafka = new Kafka({ clientId: 'broker-smoke', brokers: [broker().address], logLevel: logLevel.ERROR });
    const topic = `smoke-${randomUUID()}`;
    const admin = kafka.admin();
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    const consumer = kafka.consumer({ groupId: `smoke-${randomUUID()}` });
    try {
      await admin.connect();
      await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
      const body = JSON.stringify({ type: 'order.created', data: { order_id: 42 } });

      await producer.connect();
      const [written] = await producer.send({ topic, acks: -1, messages: [{ key: 'evt_1', value: body, headers: { 'X-Webhook-ID': 'evt_1' } }] });
      expect(written.errorCode).toBe(0);

      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      const message = await new Promise<KafkaMessage>((resolve) => {
        void consumer.run({ eachMessage: async ({ message: m }) => resolve(m) });
      });
      expect(message.key?.toString()).toBe('evt_1');
      expect(message.value?.toString()).toBe(body);
      expect(message.headers?.['X-Webhook-ID']?.toString()).toBe('evt_1');
    } finally {
      await Promise.all([consumer.disconnect(), producer.disconnect(), admin.disconnect()]);
    }
  });

  it('keeps an acknowledged message while it is down, and delivers it once up again', async () => {
    const kafka = new Kafka({ clientId: 'broker-restart', brokers: [broker().address], logLevel: logLevel.ERROR });
    const topic = `restart-${randomUUID()}`;
    const admin = kafka.admin();
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    try {
      await admin.connect();
      await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
      await producer.connect();
      await producer.send({ topic, acks: -1, messages: [{ key: 'evt_1', value: 'stored before the restart' }] });
    } finally {
      await Promise.all([producer.disconnect(), admin.disconnect()]);
    }

    await broker().down();
    // Quiet: the refusals it would log are the point.
    const refused = new Kafka({ clientId: 'broker-down', brokers: [broker().address], logLevel: logLevel.NOTHING, retry: { retries: 0 } });
    await expect(refused.admin().connect()).rejects.toThrow(/ECONNREFUSED/);
    await broker().up();

    const consumer = kafka.consumer({ groupId: `restart-${randomUUID()}` });
    try {
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      const message = await new Promise<KafkaMessage>((resolve) => {
        void consumer.run({ eachMessage: async ({ message: m }) => resolve(m) });
      });
      expect(message.value?.toString()).toBe('stored before the restart');
    } finally {
      await consumer.disconnect();
    }
  });
});

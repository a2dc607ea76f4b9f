import { randomUUID } from 'node:crypto';
import { Kafka, type KafkaMessage, logLevel } from 'kafkajs';
import { verifySync } from '../../receivers/typescript/src/node';
import { brokerForTests } from '../support/brokers';
import { brokerAccount, deliveredAfterDowntime, deliveryOf, registerDestination, sendEvent, settled } from '../support/broker-endpoints';
import { eventually } from '../support/platform';
import { receivingPlatform } from '../support/receiving-platform';

/** Endpoints whose deliveries are produced to a real Kafka (one KRaft node), through the platform as `npm start` wires it. */
describe('Kafka destinations', () => {
  const broker = brokerForTests('kafka');
  const fixture = receivingPlatform();
  const kafka = () => new Kafka({ clientId: 'destination-test', brokers: [broker().address], logLevel: logLevel.NOTHING });
  const destination = (topic: string) => ({ type: 'kafka', config: { brokers: [broker().address], topic, tls: false } });

  async function topicWith(partitions: number): Promise<string> {
    const topic = `t-${randomUUID()}`;
    const admin = kafka().admin();
    await admin.connect();
    try {
      await admin.createTopics({ topics: [{ topic, numPartitions: partitions }], waitForLeaders: true });
    } finally {
      await admin.disconnect();
    }
    return topic;
  }

  /** The first `count` messages of `topic`, with their partitions, in each partition's order. */
  async function consume(topic: string, count: number): Promise<Array<KafkaMessage & { partition: number }>> {
    const consumer = kafka().consumer({ groupId: `g-${randomUUID()}` });
    const messages: Array<KafkaMessage & { partition: number }> = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({ eachMessage: async ({ message, partition }) => void messages.push({ ...message, partition }) });
      await eventually(async () => messages.length >= count, 60_000);
      return messages;
    } finally {
      await consumer.disconnect();
    }
  }

  it('produces each delivery once, acknowledged by all in-sync replicas, keyed by event id, with headers a receiver verifies', async () => {
    const topic = await topicWith(1);
    const { api } = await brokerAccount(fixture.platform);
    const endpoint = await registerDestination(api, destination(topic));
    const eventId = await sendEvent(api);
    const delivery = await deliveryOf(api, eventId, (d) => d.status === 'succeeded');
    await settled(fixture.platform, eventId, endpoint.id);

    expect(delivery.attempts).toEqual([expect.objectContaining({ status_code: null, error: null })]);
    expect(delivery.url).toBe(`kafka://${broker().address}/${topic}`);
    const [message, ...more] = await consume(topic, 1);
    expect(more).toEqual([]);
    expect(message?.key?.toString()).toBe(String(eventId));
    // Kafka's header values are bytes: the receiver library takes them as they come.
    const headers = message!.headers as Record<string, Buffer>;
    expect(verifySync(message!.value!, headers, { secrets: endpoint.secret }).event?.id).toBe(eventId);
    expect(verifySync(message!.value!, headers, { secrets: endpoint.secret, scheme: 'spec' }).event?.id).toBe(eventId);
  });

  it('fails an attempt to a topic that does not exist (never created on first use), with the broker\'s error', async () => {
    const { api } = await brokerAccount(fixture.platform);
    const endpoint = await registerDestination(api, destination(`missing-${randomUUID()}`));
    const eventId = await sendEvent(api);
    const refused = await deliveryOf(api, eventId, (d) => d.attempt_count >= 1);
    expect(refused.status).toBe('retrying');
    expect(refused.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^The broker did not confirm the message: .*(topic|partition)/i) });
    expect((await api.delete(`/api/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(204);
  });

  it('retries on the schedule while the broker is down, and delivers once when it is up again', async () => {
    const topic = await topicWith(1);
    const { api } = await brokerAccount(fixture.platform);
    const endpoint = await registerDestination(api, destination(topic));
    const eventId = await deliveredAfterDowntime(fixture.platform, api, broker(), endpoint.id, /^The broker did not confirm the message: /);
    const messages = await consume(topic, 1);
    expect(messages.map((m) => m.key?.toString())).toEqual([String(eventId)]);
  }, 150_000);

  it('keys a FIFO endpoint by endpoint id: one partition, in ingest order', async () => {
    const topic = await topicWith(4);
    const { api } = await brokerAccount(fixture.platform);
    const endpoint = await registerDestination(api, destination(topic), { ordering: 'fifo' });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await sendEvent(api, 'order.created', { n: i }));
    for (const id of ids) await deliveryOf(api, id, (d) => d.status === 'succeeded');
    const messages = await consume(topic, ids.length);
    expect(new Set(messages.map((m) => m.key?.toString()))).toEqual(new Set([endpoint.id]));
    expect(new Set(messages.map((m) => m.partition)).size).toBe(1);
    expect(messages.map((m) => Number(m.headers?.['X-Webhook-ID']?.toString()))).toEqual(ids);
  });
});

import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, type Message, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { verifySync } from '../../receivers/typescript/src/node';
import { brokerForTests } from '../support/brokers';
import { brokerAccount, deliveredAfterDowntime, deliveryOf, everyRecord, registerDestination, sendEvent, settled } from '../support/broker-endpoints';
import { receivingPlatform } from '../support/receiving-platform';

/** Endpoints whose deliveries are sent to a real SQS-compatible queue (ElasticMQ), through the platform as `npm start` wires it. */
describe('SQS destinations', () => {
  const SECRET_KEY = `sqs-${randomUUID()}`;
  const broker = brokerForTests('sqs');
  const fixture = receivingPlatform();
  let sqs: SQSClient;
  beforeAll(() => {
    sqs = new SQSClient({ endpoint: broker().address, region: 'eu-west-1', credentials: { accessKeyId: 'reader', secretAccessKey: 'reader' } });
  });
  afterAll(() => sqs?.destroy());

  const destination = (queueUrl: string) => ({
    type: 'sqs',
    config: { queue_url: queueUrl, region: 'eu-west-1' },
    credentials: { access_key_id: 'AKIATESTPLATFORM', secret_access_key: SECRET_KEY },
  });
  const queue = async (fifo = false) =>
    (await sqs.send(new CreateQueueCommand({ QueueName: `q-${randomUUID()}${fifo ? '.fifo' : ''}`, ...(fifo && { Attributes: { FifoQueue: 'true' } }) }))).QueueUrl as string;

  async function receive(queueUrl: string): Promise<Message[]> {
    const { Messages } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageAttributeNames: ['All'], MessageSystemAttributeNames: ['All'] }),
    );
    return Messages ?? [];
  }
  /** A message's attributes as the headers map the receiver library takes. */
  const headersOf = (m: Message) => Object.fromEntries(Object.entries(m.MessageAttributes ?? {}).map(([name, value]) => [name, value.StringValue ?? '']));

  it('sends each delivery once, with the body and the signed headers as attributes a receiver verifies', async () => {
    const queueUrl = await queue();
    const { api } = await brokerAccount(fixture.platform);
    const endpoint = await registerDestination(api, destination(queueUrl));
    const eventId = await sendEvent(api);
    const delivery = await deliveryOf(api, eventId, (d) => d.status === 'succeeded');
    await settled(fixture.platform, eventId, endpoint.id);

    expect(delivery.attempts).toEqual([expect.objectContaining({ status_code: null, error: null })]);
    expect(delivery.url).toBe(queueUrl);
    const messages = await receive(queueUrl);
    expect(messages).toHaveLength(1);
    const [message] = messages as [Message];
    expect(verifySync(message.Body as string, headersOf(message), { secrets: endpoint.secret }).event?.id).toBe(eventId);
    expect(verifySync(message.Body as string, headersOf(message), { secrets: endpoint.secret, scheme: 'spec' }).event?.id).toBe(eventId);
  });

  it("fails an attempt to a queue that does not exist, with SQS's error", async () => {
    const { api } = await brokerAccount(fixture.platform);
    const missing = `${broker().address}/000000000000/missing-${randomUUID()}`;
    const endpoint = await registerDestination(api, destination(missing));
    const eventId = await sendEvent(api);
    const refused = await deliveryOf(api, eventId, (d) => d.attempt_count >= 1);
    expect(refused.status).toBe('retrying');
    expect(refused.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^The broker did not confirm the message: .*(does not exist|NonExistentQueue)/i) });
    expect((await api.delete(`/api/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(204);
  });

  it('retries on the schedule while the queue service is down, and delivers once when it is up again', async () => {
    const queueUrl = await queue();
    const { api } = await brokerAccount(fixture.platform);
    const endpoint = await registerDestination(api, destination(queueUrl));
    const eventId = await deliveredAfterDowntime(fixture.platform, api, broker(), endpoint.id, /ECONNREFUSED/);
    expect((await receive(queueUrl)).map((m) => headersOf(m)['X-Webhook-ID'])).toEqual([String(eventId)]);
  }, 150_000);

  it('sends a FIFO queue its messages in ingest order, grouped by endpoint, de-duplicated by event id', async () => {
    const queueUrl = await queue(true);
    const { api } = await brokerAccount(fixture.platform);
    const endpoint = await registerDestination(api, destination(queueUrl), { ordering: 'fifo' });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await sendEvent(api, 'order.created', { n: i }));
    for (const id of ids) await deliveryOf(api, id, (d) => d.status === 'succeeded');
    const messages = await receive(queueUrl);
    expect(messages.map((m) => Number(headersOf(m)['X-Webhook-ID']))).toEqual(ids);
    expect(messages.map((m) => m.Attributes?.MessageGroupId)).toEqual(ids.map(() => endpoint.id));
    expect(messages.map((m) => m.Attributes?.MessageDeduplicationId)).toEqual(ids.map(String));
  });

  it('keeps the credentials out of every record', async () => {
    expect(await everyRecord(fixture.platform)).not.toContain(SECRET_KEY);
  });
});

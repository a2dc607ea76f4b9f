import { CreateQueueCommand, DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { brokerForTests } from '../support/brokers';

/** The SQS-compatible server (ElasticMQ) that `npm test` provisions and starts: a sent message, with its attributes, comes back whole. */
describe('embedded SQS (ElasticMQ)', () => {
  const broker = brokerForTests('sqs');
  let sqs: SQSClient;
  beforeAll(() => {
    // ElasticMQ checks no signature: any region and credentials do.
    sqs = new SQSClient({ endpoint: broker().address, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  });
  afterAll(() => sqs?.destroy());

  it('accepts a message and delivers its body and attributes to a receiver', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'smoke' }));
    const body = JSON.stringify({ type: 'order.created', data: { order_id: 42 } });
    const sent = await sqs.send(
      new SendMessageCommand({ QueueUrl, MessageBody: body, MessageAttributes: { 'X-Webhook-ID': { DataType: 'String', StringValue: 'evt_1' } } }),
    );
    expect(sent.MessageId).toEqual(expect.any(String));

    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 10, MessageAttributeNames: ['All'] }));
    expect(Messages).toHaveLength(1);
    const [message] = Messages!;
    expect(message.MessageId).toBe(sent.MessageId);
    expect(message.Body).toBe(body);
    expect(message.MessageAttributes?.['X-Webhook-ID']?.StringValue).toBe('evt_1');
    await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: message.ReceiptHandle }));
  });

  it('de-duplicates a FIFO queue by the de-duplication id', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'smoke.fifo', Attributes: { FifoQueue: 'true' } }));
    for (const body of ['first', 'repeat of the first', 'second']) {
      const id = body === 'second' ? 'evt_2' : 'evt_1';
      await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: body, MessageGroupId: 'ep_1', MessageDeduplicationId: id }));
    }
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    expect(Messages?.map((m) => m.Body)).toEqual(['first', 'second']);
  });

  it('keeps a queue and its messages while it is down, and delivers them once up again', async () => {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'restart' }));
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'stored before the restart' }));

    await broker().down();
    await expect(sqs.send(new ReceiveMessageCommand({ QueueUrl }))).rejects.toThrow(/ECONNREFUSED/);
    await broker().up();

    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 5 }));
    expect(Messages?.map((m) => m.Body)).toEqual(['stored before the restart']);
  });
});

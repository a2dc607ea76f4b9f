import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import amqp from 'amqplib';
import type { Platform } from '../../src/main/platform';
import { brokerForTests } from '../support/brokers';
import { deliveryOf, everyRecord, registerDestination, sendEvent } from '../support/broker-endpoints';
import { ChildRole, roleEnv, spawnRole } from '../support/child-role';
import { startOtlpSink } from '../support/otlp-sink';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';

/**
 * Destination credentials are written and never read back: `npm start`'s entry in its own process, logging at debug and
 * tracing every call to an OTLP sink here, delivers to RabbitMQ and SQS (and is refused with a wrong password); no
 * credential may then be found in its output, its spans, any answer of the API, or any record of the store.
 */
describe('destination credentials', () => {
  const RABBIT_PASSWORD = `rmq-${randomUUID()}`;
  const WRONG_PASSWORD = `wrong-${randomUUID()}`;
  const SQS_SECRET = `sqs-${randomUUID()}`;
  const SQS_TOKEN = `token-${randomUUID()}`;
  const rabbitmq = brokerForTests('rabbitmq', { rabbitMqUser: { username: 'platform-test', password: RABBIT_PASSWORD } });
  const sqsBroker = brokerForTests('sqs');
  let store: Platform;
  let role: ChildRole;
  let sink: Awaited<ReturnType<typeof startOtlpSink>>;
  let answers: string[];

  beforeAll(async () => {
    store = await startTestPlatform({ roles: { api: false, worker: false } });
    sink = await startOtlpSink();
    role = spawnRole('start', { ...roleEnv(store), LOG_LEVEL: 'debug', OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const apiUrl = (await role.waitFor(/API\s+(http:\/\/127\.0\.0\.1:\d+)/))[1] as string;
    await role.waitFor(/Platform ready/);
    const api = apiClient({ apiUrl } as Platform, (await createAccountWithKey(store)).key);

    const exchange = `ex-${randomUUID()}`;
    const connection = await amqp.connect(rabbitmq().address);
    const channel = await connection.createChannel();
    await channel.assertExchange(exchange, 'fanout', { durable: true });
    await channel.bindQueue((await channel.assertQueue('', { exclusive: true })).queue, exchange, '');
    const sqs = new SQSClient({ endpoint: sqsBroker().address, region: 'eu-west-1', credentials: { accessKeyId: 'reader', secretAccessKey: 'reader' } });
    const queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `q-${randomUUID()}` }))).QueueUrl as string;
    sqs.destroy();

    const uri = `amqp://${new URL(rabbitmq().address).host}/`;
    const rabbit = (password: string) => ({ type: 'rabbitmq', config: { uri, exchange }, credentials: { username: 'platform-test', password } });
    const created = [
      await registerDestination(api, rabbit(RABBIT_PASSWORD), { events: ['good.*'] }),
      await registerDestination(api, rabbit(WRONG_PASSWORD), { events: ['refused.*'] }),
      await registerDestination(
        api,
        { type: 'sqs', config: { queue_url: queueUrl, region: 'eu-west-1' }, credentials: { access_key_id: 'AKIATEST', secret_access_key: SQS_SECRET, session_token: SQS_TOKEN } },
        { events: ['good.*'] },
      ),
    ];
    const good = await sendEvent(api, 'good.one');
    const refused = await sendEvent(api, 'refused.one');
    const delivered = await deliveryOf(api, good, () => true);
    const events = await eventually(async () => {
      const event = (await api.get(`/api/v1/webhooks/events/${good}`)).body;
      return event.deliveries.length === 2 && event.deliveries.every((d: { status: string }) => d.status === 'succeeded') ? event : undefined;
    }, 60_000);
    const failed = await deliveryOf(api, refused, (d) => d.attempt_count >= 2);
    expect(failed.attempts[0].error).toMatch(/ACCESS.REFUSED/);
    expect(delivered).toBeDefined();
    await channel.close();
    await connection.close();
    answers = [
      JSON.stringify(created),
      JSON.stringify(events),
      JSON.stringify(failed),
      JSON.stringify((await api.get('/api/v1/webhooks/endpoints')).body),
      JSON.stringify((await api.get('/openapi.json')).body),
    ];
    // The attempts' spans leave in the exporter's next batch (every 5 s).
    await eventually(async () => sink.spans.filter((s) => s.name === 'webhook.attempt.outcome').length >= 3 || undefined, 60_000);
  }, 600_000);

  afterAll(async () => {
    await role?.stop();
    await sink?.close();
    await store?.stop();
  });

  const CREDENTIALS = () => [RABBIT_PASSWORD, WRONG_PASSWORD, SQS_SECRET, SQS_TOKEN];

  it('delivered through both brokers while logging at debug and tracing (the checks below look at real output)', () => {
    expect(role.output().length).toBeGreaterThan(0);
    expect(sink.spans.some((s) => s.name === 'webhook.attempt.ssrf_check')).toBe(true);
  });

  it('puts no credential in any log line', () => {
    for (const credential of CREDENTIALS()) expect(role.output()).not.toContain(credential);
  });

  it('puts no credential in any span', () => {
    const exported = sink.raw.join('\n');
    for (const credential of CREDENTIALS()) expect(exported).not.toContain(credential);
  });

  it('puts no credential in any answer of the API, or any error of an attempt', () => {
    for (const credential of CREDENTIALS()) for (const answer of answers) expect(answer).not.toContain(credential);
  });

  it('puts no credential in any record of the store', async () => {
    const records = await everyRecord(store);
    expect(records).toContain('credentials_sealed');
    for (const credential of CREDENTIALS()) expect(records).not.toContain(credential);
  });
});

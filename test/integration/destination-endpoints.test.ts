import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { sendEventAccepted } from '../support/send-event';

/** Broker endpoints through the API: the `destination` shape, its rules, and credentials that are written and never read back. */
describe('broker destinations on the endpoints API', () => {
  let platform: Platform;
  let strict: Platform;
  let strictWorker: Platform;
  let api: ReturnType<typeof apiClient>;
  let strictApi: ReturnType<typeof apiClient>;
  const PASSWORD = 'pw-Zq81-never-shown';
  const rabbit = (config: Record<string, unknown> = {}, credentials: Record<string, string> | null = { username: 'svc', password: PASSWORD }) => ({
    type: 'rabbitmq',
    config: { uri: 'amqps://mq.example.com/prod', exchange: 'events', ...config },
    ...(credentials && { credentials }),
  });

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false } });
    // A second API process on the same data, with private destinations refused (the production default).
    strict = await startTestPlatform({ roles: { api: true, worker: false }, sameAs: platform, env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'false' } });
    // The only worker: it refuses private destinations at every attempt.
    strictWorker = await startTestPlatform({ roles: { api: false, worker: true }, sameAs: platform, env: { DELIVERY_ALLOW_PRIVATE_NETWORKS: 'false' } });
    const { key } = await createAccountWithKey(platform);
    api = apiClient(platform, key);
    strictApi = apiClient(strict, key);
  });
  afterAll(async () => {
    await strictWorker?.stop();
    await strict?.stop();
    await platform?.stop();
  });

  const create = (body: unknown, client = api) => client.post('/api/v1/webhooks/endpoints', body);

  it('registers a RabbitMQ endpoint: url null, the destination with its defaults, which credentials are set and never their values', async () => {
    const res = await create({ destination: rabbit() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: null,
      destination: { type: 'rabbitmq', config: { uri: 'amqps://mq.example.com/prod', exchange: 'events', routing_key: '' }, credentials_set: ['password', 'username'] },
      events: ['*'],
    });
    expect(res.body.secret).toMatch(/^whsec_/);
    const read = await api.get(`/api/v1/webhooks/endpoints/${res.body.id}`);
    const listed = await api.get('/api/v1/webhooks/endpoints');
    for (const answer of [res, read, listed]) expect(JSON.stringify(answer.body)).not.toContain(PASSWORD);
    expect(read.body.destination).toEqual(res.body.destination);
    // At rest: sealed, as a signing secret is.
    const stored = await platform.db.collection('endpoints').findOne({ _id: res.body.id as never });
    expect(JSON.stringify(stored)).not.toContain(PASSWORD);
    expect(stored?.destination.credentials_sealed).toMatch(/^v1\./);
  });

  it('registers Kafka (TLS on, no SASL by default) and SQS endpoints', async () => {
    const kafka = await create({ destination: { type: 'kafka', config: { brokers: ['kafka-1.example.com:9093'], topic: 'orders' } } });
    expect(kafka.status).toBe(201);
    expect(kafka.body.destination).toEqual({ type: 'kafka', config: { brokers: ['kafka-1.example.com:9093'], topic: 'orders', tls: true, sasl_mechanism: null }, credentials_set: [] });
    const sqs = await create({
      destination: { type: 'sqs', config: { queue_url: 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders.fifo', region: 'eu-west-1' }, credentials: { access_key_id: 'AKIAEXAMPLE', secret_access_key: 'sqs-secret-9f2e' } },
    });
    expect(sqs.status).toBe(201);
    expect(sqs.body.destination.credentials_set).toEqual(['access_key_id', 'secret_access_key']);
    expect(JSON.stringify(sqs.body)).not.toContain('sqs-secret-9f2e');
  });

  it('PATCH keeps the stored credentials when a destination of the same type comes without them, and switches between url and destination', async () => {
    const { id } = (await create({ destination: rabbit() })).body;
    const changed = await api.patch(`/api/v1/webhooks/endpoints/${id}`, { destination: rabbit({ exchange: 'other', routing_key: 'k' }, null) });
    expect(changed.status).toBe(200);
    expect(changed.body.destination).toMatchObject({ config: { exchange: 'other', routing_key: 'k' }, credentials_set: ['password', 'username'] });
    const toHttps = await api.patch(`/api/v1/webhooks/endpoints/${id}`, { url: 'https://receiver.example.com/hooks' });
    expect(toHttps.body).toMatchObject({ url: 'https://receiver.example.com/hooks', destination: null });
    // Back to a broker: credentials of another type (or none before) are not kept.
    const noCredentials = await api.patch(`/api/v1/webhooks/endpoints/${id}`, { destination: rabbit({}, null) });
    expect(noCredentials.status).toBe(422);
    expect(noCredentials.body.code).toBe('invalid_destination');
    expect((await api.get(`/api/v1/webhooks/endpoints/${id}`)).body.url).toBe('https://receiver.example.com/hooks');
  });

  it('PATCH of Kafka to no SASL, without credentials, drops the stored ones (nothing would send them)', async () => {
    const kafka = (sasl: string | null, credentials?: Record<string, string>) => ({
      destination: { type: 'kafka', config: { brokers: ['k.example.com:9093'], topic: 't', sasl_mechanism: sasl }, ...(credentials && { credentials }) },
    });
    const { id } = (await create(kafka('scram-sha-512', { username: 'u', password: 'p' }))).body;
    const plain = await api.patch(`/api/v1/webhooks/endpoints/${id}`, kafka(null));
    expect([plain.status, plain.body.destination?.credentials_set]).toEqual([200, []]);
    // SASL again needs credentials sent again: the old ones are gone.
    const again = await api.patch(`/api/v1/webhooks/endpoints/${id}`, kafka('plain'));
    expect([again.status, again.body.details?.[0]?.path]).toEqual([422, 'destination.credentials.username']);
  });

  it.each([
    ['RabbitMQ without credentials', { destination: rabbit({}, null) }, 'destination.credentials.username'],
    ['a user name and password in the AMQP URI', { destination: rabbit({ uri: 'amqps://svc:secret@mq.example.com/' }) }, 'destination.config.uri'],
    ['an http URI for RabbitMQ', { destination: rabbit({ uri: 'https://mq.example.com/' }) }, 'destination.config.uri'],
    ['Kafka credentials without SASL', { destination: { type: 'kafka', config: { brokers: ['k.example.com:9093'], topic: 't' }, credentials: { username: 'u', password: 'p' } } }, 'destination.config.sasl_mechanism'],
    ['a Kafka broker without a port', { destination: { type: 'kafka', config: { brokers: ['k.example.com'], topic: 't' } } }, 'destination.config.brokers'],
    ['a Kafka broker on port 0', { destination: { type: 'kafka', config: { brokers: ['k.example.com:0'], topic: 't' } } }, 'destination.config.brokers'],
    ['a Kafka broker host written as a number', { destination: { type: 'kafka', config: { brokers: ['0x7f000001:9093'], topic: 't' } } }, 'destination.config.brokers'],
    ['a RabbitMQ host written as a number', { destination: rabbit({ uri: 'amqps://2130706433:5671/' }) }, 'destination.config.uri'],
    ['a RabbitMQ URI on port 0', { destination: rabbit({ uri: 'amqps://mq.example.com:0/' }) }, 'destination.config.uri'],
    ['a RabbitMQ host with an empty label', { destination: rabbit({ uri: 'amqps://mq..example.com/' }) }, 'destination.config.uri'],
    ['a Kafka broker host starting with a hyphen', { destination: { type: 'kafka', config: { brokers: ['-k.example.com:9093'], topic: 't' } } }, 'destination.config.brokers'],
    ['an SQS URL that names no queue', { destination: { type: 'sqs', config: { queue_url: 'https://sqs.eu-west-1.amazonaws.com/', region: 'eu-west-1' }, credentials: { access_key_id: 'a', secret_access_key: 'b' } } }, 'destination.config.queue_url'],
  ])('answers 422 invalid_destination for %s, naming the field, and stores nothing', async (_name, body, path) => {
    const before = (await api.get('/api/v1/webhooks/endpoints?limit=100')).body.data.length;
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'invalid_destination', details: [{ path }] });
    expect((await api.get('/api/v1/webhooks/endpoints?limit=100')).body.data.length).toBe(before);
  });

  it.each([
    ['url and destination both', { url: 'https://a.example.com/', destination: rabbit() }],
    ['neither url nor destination', { events: ['*'] }],
    ['an unknown destination type', { destination: { type: 'pubsub', config: {} } }],
    ['an unknown config field', { destination: rabbit({ durable: true }) }],
    ['a credential field the type does not take', { destination: rabbit({}, { token: 'x' }) }],
  ])('answers 400 invalid_request for %s', async (_name, body) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
  });

  it('still refuses amqp:// and other schemes in url (422)', async () => {
    for (const url of ['amqp://mq.example.com/', 'kafka://k.example.com:9092/t', 'http://example.com/']) {
      const res = await create({ url });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('unsupported_url_scheme');
    }
  });

  it('refuses private broker hosts and plaintext unless DELIVERY_ALLOW_PRIVATE_NETWORKS is on, as for urls', async () => {
    const loopback = await create({ destination: rabbit({ uri: 'amqps://127.0.0.1:5671/' }) }, strictApi);
    expect(loopback.status).toBe(422);
    expect(loopback.body.code).toBe('destination_not_allowed');
    const metadata = await create({ destination: { type: 'kafka', config: { brokers: ['mq.example.com:9093', '169.254.169.254:9092'], topic: 't' } } }, strictApi);
    expect(metadata.body.code).toBe('destination_not_allowed');
    const plaintext = await create({ destination: rabbit({ uri: 'amqp://mq.example.com/' }) }, strictApi);
    expect(plaintext.status).toBe(422);
    expect(plaintext.body).toMatchObject({ code: 'invalid_destination', details: [{ path: 'destination.config.uri' }] });
    const kafkaPlain = await create({ destination: { type: 'kafka', config: { brokers: ['k.example.com:9092'], topic: 't', tls: false } } }, strictApi);
    expect(kafkaPlain.body.code).toBe('invalid_destination');
    // With the switch on (the tests' platform), both are accepted.
    expect((await create({ destination: rabbit({ uri: 'amqp://127.0.0.1:5672/' }) })).status).toBe(201);
  });

  it('PATCH with the url an endpoint already has checks it no more (an edit form sends it back); another private url is refused', async () => {
    const { id } = (await create({ url: 'https://127.0.0.1:9/kept' })).body;
    const edited = await strictApi.patch(`/api/v1/webhooks/endpoints/${id}`, { url: 'https://127.0.0.1:9/kept', description: 'edited' });
    expect([edited.status, edited.body.description]).toEqual([200, 'edited']);
    const moved = await strictApi.patch(`/api/v1/webhooks/endpoints/${id}`, { url: 'https://127.0.0.1:9/other' });
    expect([moved.status, moved.body.code]).toEqual([422, 'destination_not_allowed']);
    expect((await api.get(`/api/v1/webhooks/endpoints/${id}`)).body.url).toBe('https://127.0.0.1:9/kept');
  });

  it('checks broker hosts again at every attempt: a private host accepted at registration is refused by a worker that refuses them', async () => {
    const endpoint = (await create({ destination: rabbit({ uri: 'amqp://127.0.0.1:1/' }), events: ['attempt.private'] })).body;
    const eventId = (await sendEventAccepted(api, { type: 'attempt.private', data: {} })).body.id;
    const delivery = await eventually(async () => {
      const d = (await api.get(`/api/v1/webhooks/events/${eventId}`)).body.deliveries.find((x: { endpoint_id: string }) => x.endpoint_id === endpoint.id);
      return d?.attempt_count >= 1 ? d : undefined;
    }, 30_000);
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: '127.0.0.1 resolves to a private or reserved address, which is not an allowed destination.' });
    expect(delivery.status).toBe('retrying');
    expect((await api.delete(`/api/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(204);
  });
});

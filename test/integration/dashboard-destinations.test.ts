import type { Platform } from '../../src/main/platform';
import { csrfTokenIn } from '../support/dashboard-client';
import { signedUpWithKey } from '../support/dashboard-user';
import { startTestPlatform } from '../support/platform';

/**
 * The endpoint form as the API's `destination` for each broker type: Kafka's brokers one per line, its TLS checkbox and
 * SASL choice, SQS's optional session token; only the chosen type's inputs are read (a browser without JavaScript sends
 * every fieldset); a refusal in the API's words that creates nothing; an edit that switches a broker endpoint to HTTPS.
 * The test platform allows private networks, so 127.0.0.1 needs no DNS, and registration needs no broker.
 */
describe('dashboard: broker destinations from the endpoint form', () => {
  let platform: Platform;

  beforeAll(async () => {
    platform = await startTestPlatform({ roles: { api: true, worker: false }, env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  async function signedUp() {
    const { client, api } = await signedUpWithKey(platform);
    const add = (fields: Record<string, string>) => client.submit('/dashboard/endpoints', '/dashboard/endpoints', fields);
    const endpoints = async () => (await api.get('/api/v1/webhooks/endpoints')).body.data;
    return { client, api, add, endpoints };
  }

  /** What a browser without JavaScript sends besides the chosen type's inputs: every other fieldset's. */
  const otherFieldsets = {
    url: '',
    rabbitmq_uri: 'amqps://127.0.0.1:5671/',
    rabbitmq_exchange: 'x',
    rabbitmq_username: 'rabbit-user-not-sent',
    rabbitmq_password: 'rabbit-password-not-sent',
    kafka_tls: 'on',
  };

  it('registers a Kafka endpoint (brokers per line, TLS off, SASL) and an SQS one (no session token); no credential value in any page', async () => {
    const { client, api, add } = await signedUp();
    const kafka = await add({
      ...otherFieldsets,
      destination_type: 'kafka',
      kafka_brokers: '127.0.0.1:9093\r\n 127.0.0.1:9094 \r\n',
      kafka_topic: 'orders',
      kafka_tls: '',
      kafka_sasl_mechanism: 'scram-sha-256',
      kafka_username: 'kafka-user-secret',
      kafka_password: 'kafka-password-secret',
    });
    expect(kafka.status).toBe(303);
    const kafkaId = /\/dashboard\/endpoints\/(ep_[^?]+)/.exec(kafka.location ?? '')![1];
    expect((await api.get(`/api/v1/webhooks/endpoints/${kafkaId}`)).body).toMatchObject({
      url: null,
      destination: {
        type: 'kafka',
        config: { brokers: ['127.0.0.1:9093', '127.0.0.1:9094'], topic: 'orders', tls: false, sasl_mechanism: 'scram-sha-256' },
        credentials_set: ['password', 'username'],
      },
    });

    const sqs = await add({
      ...otherFieldsets,
      destination_type: 'sqs',
      sqs_queue_url: 'http://127.0.0.1:9324/000000000000/orders.fifo',
      sqs_region: 'eu-west-1',
      sqs_access_key_id: 'AKIA-sqs-key-secret',
      sqs_secret_access_key: 'sqs-secret-access-key-secret',
      sqs_session_token: '',
    });
    expect(sqs.status).toBe(303);
    const sqsId = /\/dashboard\/endpoints\/(ep_[^?]+)/.exec(sqs.location ?? '')![1];
    expect((await api.get(`/api/v1/webhooks/endpoints/${sqsId}`)).body.destination).toEqual({
      type: 'sqs',
      config: { queue_url: 'http://127.0.0.1:9324/000000000000/orders.fifo', region: 'eu-west-1' },
      credentials_set: ['access_key_id', 'secret_access_key'],
    });

    const pages = await Promise.all(['/dashboard/endpoints', `/dashboard/endpoints/${kafkaId}`, `/dashboard/endpoints/${sqsId}`].map((p) => client.get(p)));
    for (const page of pages) {
      expect(page.status).toBe(200);
      for (const value of ['kafka-user-secret', 'kafka-password-secret', 'AKIA-sqs-key-secret', 'sqs-secret-access-key-secret', 'rabbit-password-not-sent']) {
        expect(page.text).not.toContain(value);
      }
    }
    expect(pages[1].text).toContain('password, username set');
  });

  it("refuses a form the API would refuse, in the API's words, and an unknown type; neither creates anything", async () => {
    const { add, endpoints } = await signedUp();
    const noCredentials = await add({ destination_type: 'kafka', kafka_brokers: '127.0.0.1:9093', kafka_topic: 'orders', kafka_sasl_mechanism: 'plain', kafka_password: 'lonely-password' });
    expect(noCredentials.status).toBe(422);
    expect(noCredentials.text).toContain('destination.credentials.username is required for a kafka destination with SASL.');
    expect(noCredentials.text).not.toContain('lonely-password');
    // The form comes back as typed, Kafka chosen.
    expect(noCredentials.text).toMatch(/<option value="kafka" selected>/);

    const badTopic = await add({ destination_type: 'kafka', kafka_brokers: '127.0.0.1:9093', kafka_topic: 'no spaces' });
    expect(badTopic.status).toBe(400);
    expect(badTopic.text).toContain('config.topic');

    const unknown = await add({ destination_type: 'ftp', url: 'https://127.0.0.1:9/hook' });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('Choose a destination type.');
    expect(await endpoints()).toEqual([]);
  });

  it('switches a RabbitMQ endpoint to HTTPS from the edit form', async () => {
    const { client, api, add } = await signedUp();
    const created = await add({ destination_type: 'rabbitmq', rabbitmq_uri: 'amqps://127.0.0.1:5671/', rabbitmq_exchange: '', rabbitmq_username: 'u-secret', rabbitmq_password: 'p-secret' });
    expect(created.status).toBe(303);
    const page = created.location!.split('?')[0];
    const edit = await client.get(page);
    expect(edit.text).toMatch(/<option value="rabbitmq" selected>/);
    const saved = await client.post(page, { _csrf: csrfTokenIn(edit.text), destination_type: 'https', url: 'https://127.0.0.1:9/hook', events: '*', description: '' });
    expect(saved.status).toBe(303);
    const id = page.split('/').pop()!;
    expect((await api.get(`/api/v1/webhooks/endpoints/${id}`)).body).toMatchObject({ url: 'https://127.0.0.1:9/hook', destination: null });
  });
});

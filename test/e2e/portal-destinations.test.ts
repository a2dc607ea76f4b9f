import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import amqp from 'amqplib';
import { Browser, chromium, Page } from 'playwright-core';
import { verifySync } from '../../receivers/typescript/src/node';
import { CHROMIUM_ARGS, ensureChromium } from '../../scripts/ensure-chromium';
import { PROJECT_ROOT } from '../../src/infra/tools';
import type { Platform } from '../../src/main/platform';
import { brokerForTests } from '../support/brokers';
import { drainQueue } from '../support/rabbitmq-queue';
import { apiClient, createAccountWithKey, startTestPlatform } from '../support/platform';

const SCREENSHOTS = path.join(PROJECT_ROOT, 'test-artifacts', 'screenshots');
const TENANT = 'cus_brokers';

/**
 * The tenants' portal in Debian's Chromium registering broker destinations: a RabbitMQ one against a real RabbitMQ (its
 * test event arrives in the tenant's queue, signed), edited without its credentials; Kafka and SQS ones against the API's
 * rules only (registration checks the destination's rules and host, not the broker). The API's refusals are shown in the
 * form, and no credential reaches the page: not its DOM, not any response it receives.
 */
describe('portal: broker destinations in a real browser', () => {
  const mqUser = `portal-mq-user-${randomBytes(6).toString('hex')}`;
  const mqPassword = `portal-mq-pass-${randomBytes(12).toString('hex')}`;
  const broker = brokerForTests('rabbitmq', { rabbitMqUser: { username: mqUser, password: mqPassword } });
  let platform: Platform;
  let browser: Browser;
  const problems: string[] = [];

  beforeAll(async () => {
    const executablePath = await ensureChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    platform = await startTestPlatform();
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  }, 15 * 60 * 1000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  /** A tenant's portal, opened in a tab of its own, every response it receives kept (to look for credentials in). */
  async function openPortal(eventTypes: Array<{ name: string; description: string; example: unknown }>) {
    const { key } = await createAccountWithKey(platform);
    const sender = apiClient(platform, key);
    for (const type of eventTypes) expect((await sender.post('/api/v1/webhooks/event-types', type)).status).toBe(201);
    const made = await sender.post('/api/v1/webhooks/portal-sessions', { tenant_id: TENANT });
    expect(made.status).toBe(201);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    // A step that cannot happen fails with its locator, not at the test's end (a generous bound for a shared machine).
    page.setDefaultTimeout(60_000);
    // A script error or a CSP violation fails the test; the refusals the test provokes are expected, and so is the
    // browser's own look for a favicon (a tab of its own; the portal has none).
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      const expected = /status of (400|422)/.test(msg.text()) || (/status of 404/.test(msg.text()) && msg.location().url.endsWith('/favicon.ico'));
      if (msg.type() === 'error' && !expected) problems.push(`console: ${msg.text()} (${msg.location().url})`);
    });
    const bodies: Array<Promise<string>> = [];
    page.on('response', (res) => bodies.push(res.text().catch(() => '')));
    await page.goto(made.body.url);
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    /** The tenant's endpoints as the sender sees them. */
    const endpoints = async () => (await sender.get(`/api/v1/webhooks/endpoints?tenant_id=${TENANT}`)).body.data;
    /** None of `secrets` in the page's markup, in any input's value, or in any response the page received. */
    const expectNowhere = async (secrets: string[]) => {
      const inputs = (await page.locator('input, textarea').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value))).join('\n');
      const responses = (await Promise.all(bodies)).join('\n');
      expect(responses).toContain('"credentials_set":["'); // the responses searched include the endpoints'
      for (const secret of secrets) {
        expect(await page.content()).not.toContain(secret);
        expect(inputs).not.toContain(secret);
        expect(responses).not.toContain(secret);
      }
    };
    return { page, sender, endpoints, expectNowhere };
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

  /** Sends the endpoint's test event from its page and waits, refreshing, until its one delivery succeeded; answers the event id. */
  async function sendTestEvent(page: Page): Promise<number> {
    await page.getByRole('button', { name: 'Send test event' }).click();
    const heading = page.getByRole('heading', { name: /^Event #\d+$/ });
    await heading.waitFor();
    const eventId = Number((await heading.innerText()).slice('Event #'.length));
    const deadline = Date.now() + 60_000;
    while ((await page.getByTestId('delivery-status').innerText()) !== 'succeeded') {
      if (Date.now() > deadline) throw new Error('the test event was not delivered within 60 s');
      await new Promise((r) => setTimeout(r, 500));
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByTestId('delivery-status').waitFor();
    }
    return eventId;
  }

  /** An exchange with a durable queue bound to it for each routing key. */
  async function exchangeWithQueues(routingKeys: string[]) {
    const exchange = `portal-${randomUUID()}`;
    const connection = await amqp.connect(broker().address);
    try {
      const channel = await connection.createChannel();
      await channel.assertExchange(exchange, 'direct', { durable: true });
      for (const key of routingKeys) {
        await channel.assertQueue(`${exchange}-${key}`, { durable: true });
        await channel.bindQueue(`${exchange}-${key}`, exchange, key);
      }
    } finally {
      await connection.close();
    }
    return exchange;
  }

  const drain = (queue: string) => drainQueue(broker().address, queue);

  it('registers a RabbitMQ destination whose test event arrives signed in the queue, edits it without its credentials, shows the API\'s refusals', async () => {
    const { page, endpoints, sender, expectNowhere } = await openPortal([{ name: 'order.created', description: 'An order was placed.', example: { order_id: 42 } }]);
    const exchange = await exchangeWithQueues(['orders', 'invoices']);
    const uri = `amqp://${new URL(broker().address).host}/`;

    // HTTPS is the default; RabbitMQ shows its own fields only, its credentials as empty password inputs.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.getByLabel('Destination type').inputValue()).toBe('https');
    expect(await page.locator('#dest-rabbitmq-uri').isVisible()).toBe(false);
    await page.getByLabel('Destination type').selectOption('rabbitmq');
    expect(await page.getByLabel('Endpoint URL').isVisible()).toBe(false);
    expect(await page.locator('#dest-rabbitmq-password').getAttribute('type')).toBe('password');
    expect(await page.locator('#dest-rabbitmq-username').getAttribute('type')).toBe('password');

    // A URI of the wrong scheme: the API's 422 in the form, in its words, naming the field; nothing is stored.
    await page.getByLabel('AMQP URI').fill(uri.replace('amqp:', 'https:'));
    await page.getByLabel('Exchange').fill(exchange);
    await page.getByLabel('Routing key').fill('orders');
    await page.locator('#dest-rabbitmq-username').fill(mqUser);
    await page.locator('#dest-rabbitmq-password').fill(mqPassword);
    await page.getByRole('checkbox', { name: /^order\.created/ }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain('destination.config.uri: destination.config.uri must be an amqps:// URI');
    expect(await endpoints()).toEqual([]);
    await shot(page, 'portal-destination-01-refused');

    // Corrected, it is added: its type, config and which credentials are set, never their values.
    await page.getByLabel('AMQP URI').fill(uri);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Endpoint added.').waitFor();
    expect(await page.getByTestId('endpoint-type').innerText()).toBe('RabbitMQ');
    expect(await page.getByTestId('endpoint-config-uri').innerText()).toBe(uri);
    expect(await page.getByTestId('endpoint-config-exchange').innerText()).toBe(exchange);
    expect(await page.getByTestId('endpoint-config-routing_key').innerText()).toBe('orders');
    expect(await page.getByTestId('endpoint-credentials').innerText()).toBe('password, username set (values are never shown)');
    const [stored] = await endpoints();
    expect(stored).toMatchObject({ url: null, destination: { type: 'rabbitmq', config: { uri, exchange, routing_key: 'orders' }, credentials_set: ['password', 'username'] } });
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    await page.getByText(/^whsec_/).waitFor();
    const secret = (await page.getByTestId('signing-secret').innerText()).trim();
    await shot(page, 'portal-destination-02-rabbitmq-endpoint');

    // Its test event is published to the exchange: one message in the queue its routing key reaches, verified with the secret.
    const first = await sendTestEvent(page);
    expect(await page.locator('[data-testid="delivery"] h2').innerText()).toBe(`${uri} exchange "${exchange}" routing key "orders"`);
    await shot(page, 'portal-destination-03-delivered');
    const [message, ...more] = await drain(`${exchange}-orders`);
    expect(more).toEqual([]);
    expect(verifySync(message!.content, message!.properties.headers as Record<string, string>, { secrets: secret }).event).toMatchObject({ id: first, type: 'order.created', data: { order_id: 42 } });

    // Edited without its credentials: the form has its type and config, empty credential inputs, and says the stored ones are kept.
    await page.getByRole('button', { name: 'Endpoints' }).click();
    await page.getByRole('button', { name: `RabbitMQ ${uri}` }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByLabel('Destination type').inputValue()).toBe('rabbitmq');
    expect(await page.getByLabel('Exchange').inputValue()).toBe(exchange);
    expect(await page.locator('#dest-rabbitmq-password').inputValue()).toBe('');
    expect(await page.getByTestId('credentials-hint').first().innerText()).toContain('Set: password, username. Leave every credential empty to keep the stored ones');
    await page.getByLabel('Routing key').fill('invoices');
    await page.getByRole('button', { name: 'Save endpoint' }).click();
    await page.getByText('Endpoint saved.').waitFor();
    expect(await page.getByTestId('endpoint-config-routing_key').innerText()).toBe('invoices');
    expect(await page.getByTestId('endpoint-credentials').innerText()).toBe('password, username set (values are never shown)');
    expect((await sender.get(`/api/v1/webhooks/endpoints/${stored.id}`)).body.destination).toMatchObject({ config: { routing_key: 'invoices' }, credentials_set: ['password', 'username'] });

    // The kept credentials still log in: the next test event reaches the other queue.
    const second = await sendTestEvent(page);
    const [again] = await drain(`${exchange}-invoices`);
    expect(verifySync(again!.content, again!.properties.headers as Record<string, string>, { secrets: secret }).event?.id).toBe(second);
    expect(await drain(`${exchange}-orders`)).toEqual([]);

    // A bad change is refused in the API's words (a user name in the URI) and changes nothing.
    await page.getByRole('button', { name: 'Endpoints' }).click();
    await page.getByRole('button', { name: `RabbitMQ ${uri}` }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('AMQP URI').fill(uri.replace('amqp://', 'amqp://someone@'));
    await page.getByRole('button', { name: 'Save endpoint' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('destination.config.uri must not carry a user name or password');
    expect((await sender.get(`/api/v1/webhooks/endpoints/${stored.id}`)).body.destination.config.uri).toBe(uri);

    await expectNowhere([mqPassword, mqUser]);
    expect(problems).toEqual([]);
  }, 240_000);

  it('registers Kafka and SQS destinations, a malformed one refused with the API\'s 400 in the form, their credentials write-only', async () => {
    const { page, endpoints, expectNowhere } = await openPortal([]);
    const kafkaPassword = `kafka-pass-${randomBytes(12).toString('hex')}`;
    const kafkaUser = `kafka-user-${randomBytes(6).toString('hex')}`;
    const sqsSecret = `sqs-secret-${randomBytes(12).toString('hex')}`;

    // Kafka: TLS on and no SASL by default; a topic that is no topic name is a 400 naming it.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('Destination type').selectOption('kafka');
    expect(await page.getByLabel('TLS to every broker').isChecked()).toBe(true);
    expect(await page.getByLabel('SASL mechanism').inputValue()).toBe('');
    await page.getByLabel('Bootstrap servers').fill('127.0.0.1:9093\n127.0.0.1:9094');
    await page.getByLabel('Topic').fill('orders now');
    await page.getByLabel('SASL mechanism').selectOption('scram-sha-256');
    await page.locator('#dest-kafka-username').fill(kafkaUser);
    await page.locator('#dest-kafka-password').fill(kafkaPassword);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('alert').waitFor();
    const malformed = await page.getByRole('alert').innerText();
    expect(malformed).toContain('destination.config.topic');
    expect(malformed).toContain('must be 1 to 249 characters');
    expect(await endpoints()).toEqual([]);
    await page.getByLabel('Topic').fill('orders');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Endpoint added.').waitFor();
    expect(await page.getByTestId('endpoint-type').innerText()).toBe('Kafka');
    expect(await page.getByTestId('endpoint-config-brokers').innerText()).toBe('127.0.0.1:9093, 127.0.0.1:9094');
    expect(await page.getByTestId('endpoint-config-sasl_mechanism').innerText()).toBe('scram-sha-256');
    expect(await page.getByTestId('endpoint-credentials').innerText()).toBe('password, username set (values are never shown)');

    // SQS, from the list; its queue name has markup in it, which the page shows as text.
    await page.getByRole('button', { name: 'Endpoints' }).click();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('Destination type').selectOption('sqs');
    await page.getByLabel('Queue URL').fill('http://127.0.0.1:9324/000000000000/<i>orders.fifo');
    await page.getByLabel('Region').fill('eu-west-1');
    await page.getByLabel('Access key ID').fill('AKIAPORTALTEST');
    await page.getByLabel('Secret access key').fill(sqsSecret);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Endpoint added.').waitFor();
    expect(await page.getByTestId('endpoint-type').innerText()).toBe('SQS');
    expect(await page.getByTestId('endpoint-credentials').innerText()).toBe('access_key_id, secret_access_key set (values are never shown)');

    await page.getByRole('button', { name: 'Endpoints' }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    expect(await page.getByRole('button', { name: 'Kafka 127.0.0.1:9093, 127.0.0.1:9094' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'SQS http://127.0.0.1:9324/000000000000/<i>orders.fifo' }).count()).toBe(1);
    expect(await page.locator('main i').count()).toBe(0);
    await shot(page, 'portal-destination-04-list');
    expect((await endpoints()).map((e: { destination: { type: string; credentials_set: string[] } }) => [e.destination.type, e.destination.credentials_set])).toEqual([
      ['sqs', ['access_key_id', 'secret_access_key']],
      ['kafka', ['password', 'username']],
    ]);

    // At phone width, with a broker type's fields showing, nothing overflows the page sideways.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('Destination type').selectOption('kafka');
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await shot(page, 'portal-destination-05-kafka-form-375px');

    await expectNowhere([kafkaPassword, kafkaUser, sqsSecret, 'AKIAPORTALTEST']);
    expect(problems).toEqual([]);
  }, 120_000);
});

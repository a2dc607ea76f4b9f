import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createDeliveryActivities } from '../../activities/delivery-activities';
import { createHttpSender } from '../../activities/http-sender';
import { loadConfig } from '../../src/config/config';
import { createAcceptanceSeal } from '../../src/domain/webhooks/acceptance-seal';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { MAX_EXHAUSTED_NOTICES_PER_EVENT } from '../../src/domain/webhooks/operational-events';
import { RETRY_DELAYS_MS } from '../../src/domain/webhooks/retry-schedule';
import { createSecretBox } from '../../src/domain/webhooks/secret-box';
import { createDnsLookup, DEFAULT_DNS_MAX_CONCURRENT, DEFAULT_DNS_TIMEOUT_MS } from '../../src/infra/dns-lookup';
import { createLogger } from '../../src/infra/logger';
import { buildServices, openRepositories, type Repositories, type Services } from '../../src/main/wiring';
import { OperationalNoticeClaims } from '../../src/persistence/operational-notice-claims';
import { workflowBundle } from '../../src/temporal/worker';
import type { Platform } from '../../src/main/platform';
import { apiClient, createAccountWithKey, eventually, startTestPlatform } from '../support/platform';
import { startReceiver } from '../support/receiver';
import { verifySignature } from '../support/spec-signature';
import { openTestDb } from '../support/test-db';
import { startTimeSkippingEnv } from '../support/workflow-harness';
import { AttemptHandOffs } from '../../activities/attempt-hand-off';
import { AttemptHolds } from '../../activities/attempt-holds';
import { idleDeliveryDeps } from '../support/delivery-deps';

const HOUR = 3_600_000;
/** From a delivery's first attempt to its eighth (the failure): 26 h 35 min. */
const DELIVERY_SPAN = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);

/**
 * Operational events on the real services, store, delivery workflows and activities, and real HTTPS
 * receivers, with Temporal's time-skipping server: a day of retries passes in seconds. The platform
 * is wired as `npm start` wires it (buildServices), on the test server's clock.
 */
describe('operational webhooks (time-skipping)', () => {
  let env: TestWorkflowEnvironment;
  let db: Awaited<ReturnType<typeof openTestDb>>;
  let repositories: Repositories;
  let services: Services;
  let worker: Worker;
  let running: Promise<void>;
  let temporalNow = Date.now();
  const accountId = 'acct_ops';
  const failing = startReceiver(() => ({ status: 500 }));
  const operations = startReceiver(() => ({ status: 200 }));
  /** Receives operational events and answers 500 to each: nothing is ever emitted about it. */
  const failingOperations = startReceiver(() => ({ status: 500 }));

  beforeAll(async () => {
    env = await startTimeSkippingEnv();
    db = await openTestDb('operational_webhooks');
    const config = loadConfig({
      ...process.env,
      TEMPORAL_TASK_QUEUE: `ops-${randomBytes(4).toString('hex')}`,
      DELIVERY_ALLOW_PRIVATE_NETWORKS: 'true',
      ENDPOINT_AUTO_DISABLE_HOURS: '1',
      ENDPOINT_FAILING_AFTER: '3',
      LOG_LEVEL: 'silent',
    });
    const secretsKey = randomBytes(32);
    repositories = await openRepositories(db.db);
    services = buildServices({
      config,
      logger: createLogger('silent'),
      temporal: env.client,
      repositories,
      secretBox: createSecretBox(secretsKey),
      acceptanceSeal: createAcceptanceSeal(secretsKey),
      dnsLookup: createDnsLookup({ timeoutMs: DEFAULT_DNS_TIMEOUT_MS, maxConcurrent: DEFAULT_DNS_MAX_CONCURRENT }),
      eagerWorkflowStart: false,
      loopDelay: { sustainedP99Ms: () => 0 },
      clock: () => new Date(temporalNow),
    });
    const deps = {
      ...idleDeliveryDeps(),
      ...repositories,
      handOffs: new AttemptHandOffs((run, reported, deadline) => services.scheduler.reportOutcome(run, reported, deadline)),
      // First attempts are held (up to holdUpToMs) as the worker role holds them.
      holds: new AttemptHolds(config.delivery.firstAttemptsHeldMax),
      secretBox: createSecretBox(secretsKey),
      sender: createHttpSender({ allowPrivateNetworks: true, lookup: createDnsLookup({ timeoutMs: DEFAULT_DNS_TIMEOUT_MS, maxConcurrent: DEFAULT_DNS_MAX_CONCURRENT }) }),
      operational: services.events,
      autoDisable: {
        afterMs: config.endpointAutoDisableAfterMs,
        disable: (account: string, id: string, decidedAt: Date) => services.endpoints.disableForFailures(account, id, decidedAt),
      },
    };
    // Each attempt runs on the test server's (skipped) time, read when it begins.
    const atTemporalNow = async <T>(run: (activities: ReturnType<typeof createDeliveryActivities>) => Promise<T>): Promise<T> => {
      temporalNow = await env.currentTimeMs();
      const now = temporalNow;
      return run(createDeliveryActivities({ ...deps, clock: () => new Date(now) }));
    };
    const activities: ReturnType<typeof createDeliveryActivities> = {
      attemptDelivery: (input) => atTemporalNow((a) => a.attemptDelivery(input)),
      cancelDelivery: (input) => atTemporalNow((a) => a.cancelDelivery(input)),
    };
    worker = await Worker.create({ connection: env.nativeConnection, taskQueue: config.temporal.taskQueue, workflowBundle: await workflowBundle(), activities });
    running = worker.run();
  });
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await services?.limiter.close();
    for (const receiver of [failing, operations, failingOperations]) await (await receiver).close();
    await db?.close();
    await env?.teardown();
  });

  /** Ingests an event and waits until its delivery workflows run: the outbox starts them in real time, not while time is skipped. */
  async function ingest(type: string, endpointIds: string | string[], account = accountId): Promise<number> {
    const ticket = services.admission.admit(account);
    let id: number;
    try {
      id = (await services.events.ingest(ticket, { type, data: { order: type } })).body.id as number;
    } finally {
      ticket.release();
    }
    for (const endpointId of [endpointIds].flat()) await eventually(() => services.scheduler.isRunning(deliveryId(id, endpointId)));
    return id;
  }

  const bodyOf = (raw: string) => JSON.parse(raw) as { id: number; type: string; data: Record<string, unknown> };

  it('delivers delivery.exhausted and endpoint.disabled, signed, to an endpoint subscribed to them, and nothing about an endpoint that receives them', async () => {
    const failingUrl = `${(await failing).url}/orders`;
    const orders = await services.endpoints.create(accountId, { url: failingUrl, events: ['order.*'] });
    const ops = await services.endpoints.create(accountId, { url: `${(await operations).url}/ops`, events: ['platform.*'] });
    const opsFailing = await services.endpoints.create(accountId, { url: `${(await failingOperations).url}/ops`, events: ['platform.endpoint.*', 'platform.delivery.exhausted'] });

    // Two deliveries to the failing endpoint, two hours apart: the second failure ends a failing streak
    // longer than the auto-disable period (1 h here).
    const first = await ingest('order.paid', orders.id);
    await env.sleep(2 * HOUR);
    const second = await ingest('order.shipped', orders.id);
    await env.sleep(DELIVERY_SPAN + 10 * 60_000);

    const received = await eventually(async () => {
      const got = (await operations).received;
      return got.length >= 3 && got;
    }, 60_000);
    const bodies = received.map((r) => bodyOf(r.rawBody));
    for (const r of received) expect(verifySignature(ops.secret, r.rawBody, r.headers['x-webhook-signature'])).toBe(true);

    const exhausted = bodies.filter((b) => b.type === 'platform.delivery.exhausted').sort((a, b) => (a.data.event_id as number) - (b.data.event_id as number));
    expect(exhausted.map((b) => b.data)).toEqual(
      [first, second].map((eventId) => ({
        event_id: eventId,
        event_type: eventId === first ? 'order.paid' : 'order.shipped',
        endpoint_id: orders.id,
        url: failingUrl,
        round: 1,
        attempts: 8,
        last_attempt_at: expect.any(String),
        last_status_code: 500,
        last_error: 'Destination answered HTTP 500.',
      })),
    );
    const disabled = bodies.filter((b) => b.type === 'platform.endpoint.disabled');
    expect(disabled.map((b) => b.data)).toEqual([
      {
        endpoint_id: orders.id,
        url: failingUrl,
        disabled_reason: 'failing',
        disabled_at: expect.any(String),
        failing_since: expect.any(String),
        consecutive_failures: 2,
      },
    ]);
    expect(await services.endpoints.get(accountId, orders.id)).toMatchObject({ disabled: true, disabled_reason: 'failing' });

    // Each one is an event of the account with its delivery history.
    const shown = await services.events.get(accountId, disabled[0].id);
    expect(shown).toMatchObject({ type: 'platform.endpoint.disabled', destinations: 2 });
    expect(shown.deliveries.find((d) => d.endpoint_id === ops.id)).toMatchObject({ status: 'succeeded', attempt_count: 1 });

    // The other operational endpoint fails every one of them for a day: not one notice is about it.
    const toFailingOps = bodies.map((b) => deliveryId(b.id, opsFailing.id));
    await env.sleep(DELIVERY_SPAN + 10 * 60_000);
    await eventually(async () => {
      const running = await Promise.all(toFailingOps.map((id) => services.scheduler.isRunning(id)));
      return running.every((r) => !r);
    }, 60_000);
    expect((await repositories.deliveries.find(toFailingOps[0]))?.status).toBe('failed');
    const operational = await services.events.list(accountId, { limit: 100, type: 'platform.delivery.exhausted' });
    expect(operational.data.map((e) => e.data.event_id).sort()).toEqual([first, second].sort());
    expect((await operations).received).toHaveLength(3);
  });

  it('sends delivery.exhausted for at most MAX_EXHAUSTED_NOTICES_PER_EVENT of one ingest’s failed deliveries, however many endpoints it fanned out to', async () => {
    const account = 'acct_ops_fan_out';
    const failingUrl = (await failing).url;
    const fanOut = MAX_EXHAUSTED_NOTICES_PER_EVENT + 3;
    const endpoints: Array<{ id: string }> = [];
    for (let i = 0; i < fanOut; i++) endpoints.push(await services.endpoints.create(account, { url: `${failingUrl}/fan-out-${i}`, events: ['invoice.*'] }));
    await services.endpoints.create(account, { url: `${(await operations).url}/fan-out-ops`, events: ['platform.delivery.exhausted'] });

    const source = await ingest('invoice.sent', endpoints.map((e) => e.id), account);
    await env.sleep(DELIVERY_SPAN + 10 * 60_000);
    // Each delivery's activity has stored its notice, if any, before its workflow closed.
    await eventually(async () => {
      const running = await Promise.all(endpoints.map((e) => services.scheduler.isRunning(deliveryId(source, e.id))));
      return running.every((r) => !r);
    }, 60_000);
    const failed = await Promise.all(endpoints.map((e) => repositories.deliveries.find(deliveryId(source, e.id))));
    expect(failed.map((d) => d?.status)).toEqual(endpoints.map(() => 'failed'));
    const notices = (await services.events.list(account, { limit: 100, type: 'platform.delivery.exhausted' })).data;
    expect(notices.map((n) => n.data.event_id)).toEqual(Array.from({ length: MAX_EXHAUSTED_NOTICES_PER_EVENT }, () => source));
    expect(new Set(notices.map((n) => n.data.endpoint_id)).size).toBe(MAX_EXHAUSTED_NOTICES_PER_EVENT);
  });

  it('claims endpoint.failing once per endpoint and hour among concurrent claimers, and again for the claimer that holds it', async () => {
    const claims = new OperationalNoticeClaims(db.db);
    const hour = Date.parse('2026-11-01T10:00:00Z');
    const won = await Promise.all(Array.from({ length: 8 }, (_, i) => claims.claimHour('platform.endpoint.failing', 'ep_x', hour, `delivery-${i}`)));
    expect(won.filter(Boolean)).toHaveLength(1);
    const winner = `delivery-${won.indexOf(true)}`;
    expect(await claims.claimHour('platform.endpoint.failing', 'ep_x', hour, winner)).toBe(true);
    expect(await claims.claimHour('platform.endpoint.failing', 'ep_x', hour + HOUR, 'delivery-0')).toBe(true);
  });

  it("claims an event's notices up to the cap among concurrent claimers, and again for a claimer that holds one", async () => {
    const event = await repositories.events.insertWithNextId(
      { account_id: 'acct_notices', type: 'a.b', data: {}, timestamp: 0, idempotency_key: null, endpoint_ids: [], endpoint_urls: [], created_at: new Date() },
      (id) => JSON.stringify({ id, data: {} }),
    );
    const kind = 'platform.delivery.exhausted';
    const won = await Promise.all(Array.from({ length: 12 }, (_, i) => repositories.events.claimNotice(event._id, kind, 3, `delivery-${i}`)));
    expect(won.filter(Boolean)).toHaveLength(3);
    expect(await repositories.events.claimNotice(event._id, kind, 3, `delivery-${won.indexOf(true)}`)).toBe(true);
    expect(await repositories.events.claimNotice(event._id, kind, 3, `delivery-${won.indexOf(false)}`)).toBe(false);
    expect(await repositories.events.claimNotice(event._id, 'platform.endpoint.failing', 3, 'delivery-0')).toBe(true);
    expect(await repositories.events.claimNotice(event._id + 1_000_000, kind, 3, 'delivery-0')).toBe(false);
  });
});

/** On the platform as `npm start` wires it: the API's subscription rules and an emitted event's delivery and history. */
describe('operational webhooks on the platform', () => {
  let platform: Platform;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    platform = await startTestPlatform();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await platform?.stop();
    await receiver?.close();
  });

  it('delivers an emitted operational event, signed, to `platform.*` only, with its history in GET /events/{id}', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const api = apiClient(platform, key);
    const ops = (await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/ops`, events: ['platform.*'] })).body;
    const all = (await api.post('/api/v1/webhooks/endpoints', { url: `${receiver.url}/all`, events: ['*'] })).body;
    expect([ops.events, all.events]).toEqual([['platform.*'], ['*']]);

    const data = { event_id: 1, endpoint_id: all.id };
    await platform.services.events.emitPlatformEvent(accountId, { type: 'platform.delivery.exhausted', data, idempotency_key: 'platform:delivery.exhausted:1:x:1' });
    const [got] = await eventually(async () => receiver.received.length > 0 && receiver.received);
    expect(got.path).toBe('/ops');
    expect(verifySignature(ops.secret, got.rawBody, got.headers['x-webhook-signature'])).toBe(true);
    const body = JSON.parse(got.rawBody);
    expect(body).toMatchObject({ type: 'platform.delivery.exhausted', data });

    const shown = await eventually(async () => {
      const res = await api.get(`/api/v1/webhooks/events/${body.id}`);
      return res.body.status === 'delivered' && res.body;
    });
    expect(shown.deliveries.map((d: { endpoint_id: string }) => d.endpoint_id)).toEqual([ops.id]);
    expect(receiver.received.map((r) => r.path)).toEqual(['/ops']);
  });

  it('lets a repeat of an emission (a retried activity) make no second event', async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const input = { type: 'platform.endpoint.failing', data: {}, idempotency_key: 'platform:endpoint.failing:ep_x:0' };
    await platform.services.events.emitPlatformEvent(accountId, input);
    await platform.services.events.emitPlatformEvent(accountId, input);
    expect((await apiClient(platform, key).get('/api/v1/webhooks/events')).body.data).toHaveLength(1);
  });

  it("keeps an account's idempotency keys apart from the platform's, whatever they spell", async () => {
    const { accountId, key } = await createAccountWithKey(platform);
    const api = apiClient(platform, key);
    const emit = (idempotencyKey: string) => platform.services.events.emitPlatformEvent(accountId, { type: 'platform.endpoint.failing', data: {}, idempotency_key: idempotencyKey });
    const ingest = (idempotencyKey: string) => api.post('/api/v1/webhooks/events', { type: 'order.created', data: {}, idempotency_key: idempotencyKey });

    // The account takes the key of a notice first: the notice is still emitted.
    const first = await ingest('platform:endpoint.failing:ep_a:0');
    expect(first.status).toBe(202);
    await emit('platform:endpoint.failing:ep_a:0');
    // The platform takes a key first: the account's ingest with it is a new event, not a repeat of the notice.
    await emit('platform:endpoint.failing:ep_b:0');
    const second = await ingest('platform:endpoint.failing:ep_b:0');
    expect(second.status).toBe(202);
    expect(second.body.type).toBe('order.created');

    const listed = (await api.get('/api/v1/webhooks/events')).body.data as Array<{ type: string }>;
    expect(listed.map((e) => e.type).sort()).toEqual(['order.created', 'order.created', 'platform.endpoint.failing', 'platform.endpoint.failing']);
    expect((await ingest('platform:endpoint.failing:ep_a:0')).body.id).toBe(first.body.id);
  });
});

import { randomBytes } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createDeliveryActivities } from '../../activities/delivery-activities';
import { createHttpSender } from '../../activities/http-sender';
import { deliveryId } from '../../src/domain/webhooks/delivery-id';
import { DEFAULT_AUTO_DISABLE_AFTER_MS } from '../../src/domain/webhooks/endpoint-health';
import { RETRY_DELAYS_MS } from '../../src/domain/webhooks/retry-schedule';
import { createSecretBox } from '../../src/domain/webhooks/secret-box';
import { createDnsLookup, DEFAULT_DNS_MAX_CONCURRENT, DEFAULT_DNS_TIMEOUT_MS } from '../../src/infra/dns-lookup';
import { Deliveries } from '../../src/persistence/deliveries';
import { EndpointHealthLog } from '../../src/persistence/endpoint-health-log';
import { Endpoints } from '../../src/persistence/endpoints';
import { Events } from '../../src/persistence/events';
import { EndpointService } from '../../src/services/endpoint-service';
import { DeliveryScheduler } from '../../src/temporal/delivery-scheduler';
import { workflowBundle } from '../../src/temporal/worker';
import { openTestDb } from '../support/test-db';
import { startReceiver } from '../support/receiver';
import { startTimeSkippingEnv } from '../support/workflow-harness';
import { AttemptHandOffs } from '../../activities/attempt-hand-off';
import { idleDeliveryDeps } from '../support/delivery-deps';

const HOUR = 3_600_000;
const PERIOD = DEFAULT_AUTO_DISABLE_AFTER_MS;
/** From a delivery's first attempt to its eighth (the failure): 26 h 35 min. */
const DELIVERY_SPAN = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);

/**
 * The auto-disable rule on Temporal's time-skipping server: real delivery workflows and
 * activities, the real store and a real HTTPS receiver that always answers 500; days pass in
 * seconds. Each attempt reads the test server's time when it begins, so the health log sees the
 * skipped days. The tests run in order on one endpoint, as days go by.
 */
describe('endpoint health and auto-disable (time-skipping)', () => {
  let env: TestWorkflowEnvironment;
  let db: Awaited<ReturnType<typeof openTestDb>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: Worker;
  let running: Promise<void>;
  let service: EndpointService;
  let scheduler: DeliveryScheduler;
  let deliveries: Deliveries;
  let events: Events;
  let temporalNow = Date.now();
  const accountId = 'acct_health';
  let endpointId: string;

  beforeAll(async () => {
    env = await startTimeSkippingEnv();
    db = await openTestDb('endpoint_health');
    receiver = await startReceiver(() => ({ status: 500 }));
    const taskQueue = `health-${randomBytes(4).toString('hex')}`;
    const endpoints = new Endpoints(db.db);
    const health = new EndpointHealthLog(db.db);
    deliveries = new Deliveries(db.db);
    events = new Events(db.db);
    const secretBox = createSecretBox(randomBytes(32));
    scheduler = new DeliveryScheduler(env.client, taskQueue);
    service = new EndpointService({
      endpoints,
      deliveries,
      health,
      scheduler,
      resumer: {} as never,
      secretBox,
      allowPrivateNetworks: true,
      maxEndpointsPerAccount: 10,
      autoDisableAfterMs: PERIOD,
      dnsLookup: createDnsLookup({ timeoutMs: DEFAULT_DNS_TIMEOUT_MS, maxConcurrent: DEFAULT_DNS_MAX_CONCURRENT }),
      clock: () => new Date(temporalNow),
    });
    const deps = {
      ...idleDeliveryDeps(),
      handOffs: new AttemptHandOffs((run, reported, deadline) => scheduler.reportOutcome(run, reported, deadline)),
      endpoints,
      events,
      deliveries,
      secretBox,
      sender: createHttpSender({ allowPrivateNetworks: true, lookup: createDnsLookup({ timeoutMs: DEFAULT_DNS_TIMEOUT_MS, maxConcurrent: DEFAULT_DNS_MAX_CONCURRENT }) }),
      endpointHealth: health,
      autoDisable: { afterMs: PERIOD, disable: (account: string, id: string, decidedAt: Date) => service.disableForFailures(account, id, decidedAt) },
    };
    // Attempts are local activities, run by the worker on its own clock: each reads the test
    // server's (skipped) time when it begins.
    const atTemporalNow = async <T>(run: (activities: ReturnType<typeof createDeliveryActivities>) => Promise<T>): Promise<T> => {
      const now = await env.currentTimeMs();
      return run(createDeliveryActivities({ ...deps, clock: () => new Date(now) }));
    };
    const activities: ReturnType<typeof createDeliveryActivities> = {
      attemptDelivery: (input) => atTemporalNow((a) => a.attemptDelivery(input)),
      cancelDelivery: (input) => atTemporalNow((a) => a.cancelDelivery(input)),
    };
    worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: await workflowBundle(), activities });
    running = worker.run();
    endpointId = (await service.create(accountId, { url: `${receiver.url}/hook` })).id;
  });
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await receiver?.close();
    await db?.close();
    await env?.teardown();
  });

  /** Stores the event as ingest would (an attempt delivers only what the platform accepted), then starts its delivery. */
  async function startDelivery(): Promise<string> {
    const timestamp = Math.floor((await env.currentTimeMs()) / 1000);
    const bodyFor = (id: number) => JSON.stringify({ id, type: 'health.check', data: {}, timestamp });
    const event = await events.insertWithNextId(
      { account_id: accountId, type: 'health.check', data: {}, timestamp, idempotency_key: null, endpoint_ids: [endpointId], endpoint_urls: [receiver.url], owner: null, created_at: new Date(temporalNow) },
      bodyFor,
    );
    const eventId = event._id;
    const workflowId = deliveryId(eventId, endpointId);
    const body = event.body;
    await scheduler.start({ workflowId, eventId, endpointId, accountId, round: 1, type: 'health.check', timestamp, body, url: receiver.url }, { manualRetry: false });
    return workflowId;
  }

  /**
   * Lets Temporal time pass (timers fire, attempts run) and reads how the delivery ended from the
   * store. Not `result()`: awaiting a result lets the test server skip time freely, years ahead.
   */
  async function ended(id: string, afterMs = DELIVERY_SPAN + 10 * 60_000): Promise<string | undefined> {
    await env.sleep(afterMs);
    return (await deliveries.find(id))?.status;
  }

  async function endpoint() {
    temporalNow = await env.currentTimeMs();
    return service.get(accountId, endpointId);
  }

  it('records a failed delivery when its eighth attempt fails: counted, last failure, one consecutive failure', async () => {
    const id = await startDelivery();
    expect(await ended(id)).toBe('failed');
    const e = await endpoint();
    expect(e.health).toMatchObject({ succeeded_24h: 0, failed_24h: 1, last_success_at: null, consecutive_failures: 1 });
    expect(e.health.last_failure_at).toBe(e.health.failing_since);
    expect(e).toMatchObject({ disabled: false, disabled_reason: null });
  });

  it('keeps the endpoint enabled while its failures have lasted less than the period', async () => {
    const failingSince = Date.parse((await endpoint()).health.failing_since!);
    // The next delivery fails an hour before the period is up.
    await env.sleep(failingSince + PERIOD - HOUR - DELIVERY_SPAN - (await env.currentTimeMs()));
    expect(await ended(await startDelivery())).toBe('failed');
    const e = await endpoint();
    expect(Date.parse(e.health.last_failure_at!) - failingSince).toBeLessThan(PERIOD);
    expect(e).toMatchObject({ disabled: false, disabled_reason: null, health: { consecutive_failures: 2, failed_24h: 1 } });
  });

  it('disables the endpoint as `failing` when a failure ends a streak as long as the period, and cancels its pending retries', async () => {
    const failing = await startDelivery();
    await env.sleep(3 * HOUR);
    // Still retrying when the other one fails: it is cancelled as a manual disable would.
    const pending = await startDelivery();
    expect(await ended(failing, DELIVERY_SPAN - 3 * HOUR + 10 * 60_000)).toBe('failed');
    expect(await ended(pending, 60_000)).toBe('cancelled');
    const e = await endpoint();
    expect(Date.parse(e.health.last_failure_at!) - Date.parse(e.health.failing_since!)).toBeGreaterThanOrEqual(PERIOD);
    expect(e).toMatchObject({ disabled: true, disabled_reason: 'failing', health: { consecutive_failures: 3 } });
    expect((await scheduler.isRunning(pending))).toBe(false);
  });

  it('enabling it again clears the mark and gives it a whole new period', async () => {
    temporalNow = await env.currentTimeMs();
    const enabled = await service.update(accountId, endpointId, { disabled: false });
    expect(enabled).toMatchObject({ disabled: false, disabled_reason: null, health: { consecutive_failures: 0, failing_since: null } });
    expect(await ended(await startDelivery())).toBe('failed');
    expect(await endpoint()).toMatchObject({ disabled: false, disabled_reason: null, health: { consecutive_failures: 1 } });
  });
});

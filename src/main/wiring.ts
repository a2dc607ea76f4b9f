import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { Config } from '../config/config';
import { type Clock, systemClock } from '../domain/clock';
import type { LookupAllFunction } from '../domain/webhooks/destination-resolver';
import type { AcceptanceSeal } from '../domain/webhooks/acceptance-seal';
import type { SecretBox } from '../domain/webhooks/secret-box';
import type { Logger } from '../infra/logger';
import { Accounts } from '../persistence/accounts';
import { ApiInstances } from '../persistence/api-instances';
import { ApiKeys } from '../persistence/api-keys';
import { cacheInvalidationsOf, Invalidation } from '../persistence/cache-invalidations';
import { BlockLimiter } from '../persistence/block-limiter';
import { Deliveries } from '../persistence/deliveries';
import { EndpointHealthLog } from '../persistence/endpoint-health-log';
import { EndpointInFlightLeases } from '../persistence/endpoint-in-flight-leases';
import { EndpointRateTokens } from '../persistence/endpoint-rate-tokens';
import { Endpoints } from '../persistence/endpoints';
import { Events } from '../persistence/events';
import { EventTypes } from '../persistence/event-types';
import { Tenants } from '../persistence/tenants';
import { PortalSessions } from '../persistence/portal-sessions';
import { IdempotencyRecords } from '../persistence/idempotency-records';
import { LimitUsage } from '../persistence/limit-usage';
import { LimitWindows } from '../persistence/limit-windows';
import { OperationalNoticeClaims } from '../persistence/operational-notice-claims';
import { AccountEndpointsCache } from '../services/account-endpoints-cache';
import { AccountService } from '../services/account-service';
import { CrashRecovery } from '../services/crash-recovery';
import { DeliveryOutbox } from '../services/delivery-outbox';
import { AttemptSlots } from '../domain/webhooks/attempt-slots';
import { LaggingAccounts } from '../services/lagging-accounts';
import { WorkerLoads } from '../persistence/worker-loads';
import { IngestAdmission, ingestConcurrencyTuning } from '../services/ingest-admission';
import { outboxWaitBoundMs } from '../domain/flow-control/backlog-budget';
import { DeliveryStartWindow, START_CALL_TUNING, START_WINDOW_TUNING } from '../services/delivery-start-window';
import { recordStartCall, setOutboxOldestWaitSource } from '../infra/metrics';
import { EndpointService } from '../services/endpoint-service';
import { EventRetention } from '../services/event-retention';
import { EventService } from '../services/event-service';
import { EventTypeSchemas } from '../services/event-type-schemas';
import { EventTypeService } from '../services/event-type-service';
import { TenantService } from '../services/tenant-service';
import { PortalSessionService } from '../services/portal-session-service';
import { PortalSettingsService } from '../services/portal-settings-service';
import { InstanceLease } from '../services/instance-lease';
import { CacheInvalidationFollower, lifetimeOf } from '../persistence/cache-invalidation-follower';
import { KeyAuthenticator } from '../services/key-authenticator';
import { DeliveryScheduler } from '../temporal/delivery-scheduler';
import { RecoveryScheduler } from '../temporal/recovery-scheduler';
import { ResumeScheduler } from '../temporal/resume-scheduler';
import { FifoQueues } from '../persistence/fifo-queues';
import { FifoTurns } from '../services/fifo-turns';
import { AccountCache } from '../services/account-cache';
import { SchemaCheckPool } from '../infra/schema-check-pool';

/** The collections both roles use, with their indexes. */
export async function openRepositories(db: Db) {
  const repositories = {
    accounts: new Accounts(db),
    apiKeys: new ApiKeys(db),
    cacheInvalidations: cacheInvalidationsOf(db),
    endpoints: new Endpoints(db),
    endpointHealth: new EndpointHealthLog(db),
    /** Each endpoint's own limits, across worker processes (activities/endpoint-limiter.ts). */
    endpointRateTokens: new EndpointRateTokens(db),
    endpointLeases: new EndpointInFlightLeases(db),
    events: new Events(db),
    eventTypes: new EventTypes(db),
    deliveries: new Deliveries(db),
    apiInstances: new ApiInstances(db),
    idempotency: new IdempotencyRecords(db),
    limitWindows: new LimitWindows(db),
    limitUsage: new LimitUsage(db),
    workerLoads: new WorkerLoads(db),
    /** Once-an-hour operational events per endpoint, across processes (the per-event cap is on the event: Events.claimNotice). */
    operationalNoticeClaims: new OperationalNoticeClaims(db),
    fifoQueues: new FifoQueues(db),
    tenants: new Tenants(db),
    portalSessions: new PortalSessions(db),
  };
  for (const repo of Object.values(repositories)) if ('ensureIndexes' in repo) await repo.ensureIndexes();
  return repositories;
}

export type Repositories = Awaited<ReturnType<typeof openRepositories>>;

/** Every use case, built once from named dependencies. Nothing here starts a timer or a server. */
export function buildServices({ config, logger, temporal, repositories, secretBox, acceptanceSeal, dnsLookup, eagerWorkflowStart, loopDelay, clock = systemClock }: {
  config: Config;
  logger: Logger;
  temporal: Client;
  repositories: Repositories;
  secretBox: SecretBox;
  /** Seals what the outbox starts (acceptance-seal.ts); derived from the same secrets key. */
  acceptanceSeal: AcceptanceSeal;
  /** Destination lookups (one pool per process, shared with the worker's sender). */
  dnsLookup: LookupAllFunction;
  /** Both roles here: workflows start eagerly on this worker, no faster than it begins their attempts. */
  eagerWorkflowStart: boolean;
  loopDelay: { sustainedP99Ms(): number };
  /** Injected clock for limits, idempotency windows and cache lifetimes (tests of their boundaries); delivery timing stays real. */
  clock?: Clock;
}) {
  const scheduler = new DeliveryScheduler(temporal, config.temporal.taskQueue, { eager: eagerWorkflowStart, seal: acceptanceSeal });
  // One log brings every change to this process's caches: its own as logged, others' through the follower.
  const caches = () => [authenticator, endpointsCache, eventTypeSchemas, portalAccounts];
  const applyToCaches = (invalidation: Invalidation) => caches().forEach((cache) => cache.apply(invalidation));
  repositories.cacheInvalidations.onAppend(applyToCaches);
  const now = () => clock().getTime();
  const invalidations = new CacheInvalidationFollower(
    repositories.cacheInvalidations,
    applyToCaches,
    {
      reset: () => caches().forEach((cache) => cache.clear()),
      onError: (err) => logger.warn({ err }, 'could not read the cache-invalidations log; caches fall back to short TTLs until it answers'),
      now,
    },
  );
  const authenticator = new KeyAuthenticator({ keys: repositories.apiKeys, accounts: repositories.accounts, lifetime: lifetimeOf(invalidations), now });
  const endpointsCache = new AccountEndpointsCache({ endpoints: repositories.endpoints, lifetime: lifetimeOf(invalidations), now });
  const schemaChecks = new SchemaCheckPool();
  const eventTypeSchemas = new EventTypeSchemas({ eventTypes: repositories.eventTypes, schemaChecks, lifetime: lifetimeOf(invalidations), now });
  const portalAccounts = new AccountCache({ accounts: repositories.accounts, lifetime: lifetimeOf(invalidations), now });
  const fifo = new FifoTurns({
    ...repositories,
    queues: repositories.fifoQueues,
    wake: (workflowId) => scheduler.wakeForTurn(workflowId),
    clock: systemClock,
  });

  // With a worker here, starts are paced by their wait for a first attempt, else by Temporal's answer to the start call.
  const startWindow = eagerWorkflowStart
    ? new DeliveryStartWindow(config.dispatchStartWindow, undefined, undefined, START_WINDOW_TUNING)
    : new DeliveryStartWindow(config.dispatchStartWindow, undefined, undefined, START_CALL_TUNING, recordStartCall);
  // Both roles here: an account with no free attempt place has its starts wait in the outbox (seen and refused by admission), not in Temporal as throttled attempts.
  const attemptSlots = new AttemptSlots(config.delivery.inFlight);
  const outbox = new DeliveryOutbox(scheduler, logger, {
    startConcurrency: config.dispatchStartConcurrency,
    window: startWindow,
    windowFreedBy: eagerWorkflowStart ? 'first-attempt' : 'start-call',
    cannotMove: eagerWorkflowStart ? (accountId) => attemptSlots.full(accountId) : undefined,
  });
  attemptSlots.onFree(() => outbox.poke());
  setOutboxOldestWaitSource(() => outbox.oldestWaitMs());
  const laggingAccounts = eagerWorkflowStart ? undefined : new LaggingAccounts(repositories.workerLoads, config.maxBacklogMs, logger);

  const lease = new InstanceLease({
    instances: repositories.apiInstances,
    awaiting: outbox.awaiting,
    ttlMs: config.instanceLeaseTtlMs,
    logger,
  });
  const endpoints = new EndpointService({
    ...repositories,
    health: repositories.endpointHealth,
    scheduler,
    resumer: new ResumeScheduler(temporal, config.temporal.taskQueue),
    secretBox,
    fifoQueue: fifo,
    allowPrivateNetworks: config.delivery.allowPrivateNetworks,
    maxEndpointsPerAccount: config.maxEndpointsPerAccount,
    tenantCaps: config.tenantCaps,
    autoDisableAfterMs: config.endpointAutoDisableAfterMs,
    dnsLookup,
    clock: systemClock,
  });
  const noticeRules = { failingAfter: config.endpointFailingAfter, autoDisableAfterMs: config.endpointAutoDisableAfterMs };
  return {
    /** One of each per process: the worker role's activities use them too. */
    secretBox,
    acceptanceSeal,
    dnsLookup,
    accounts: new AccountService({ accounts: repositories.accounts, keys: repositories.apiKeys, clock: systemClock }),
    authenticator,
    invalidations,
    limiter: new BlockLimiter(repositories.limitWindows, repositories.limitUsage, clock),
    endpoints,
    endpointsCache,
    /** The account's tenants: listed, and deleted endpoint by endpoint through `endpoints`. */
    tenants: new TenantService({ tenants: repositories.tenants, endpoints: repositories.endpoints, endpointService: endpoints, portalSessions: repositories.portalSessions }),
    /** Tokens for one tenant's people: the session read on every call they make, its account cached as a key's is. */
    portalSessions: new PortalSessionService({ sessions: repositories.portalSessions, accounts: portalAccounts, clock }),
    /** Who may frame the tenants' portal page, and its branding (on the account, read fresh: the page's headers come from it). */
    portalSettings: new PortalSettingsService({ accounts: repositories.accounts }),
    /** Events and their deliveries, bulk recovery included (not crash recovery: that is `recovery`). */
    events: new EventService({ ...repositories, endpointsCache, eventTypeSchemas, outbox, lease, scheduler, recoveries: new RecoveryScheduler(temporal, config.temporal.taskQueue), fifo, noticeRules, clock }),
    /** The account's event-type catalog; ingest checks data against it through `eventTypeSchemas`. */
    eventTypes: new EventTypeService({ eventTypes: repositories.eventTypes, schemaChecks, clock: systemClock }),
    /** The threads that compile and run event-type schemas, each task within a deadline. */
    schemaChecks,
    outbox,
    /** Whether a new event is taken now (the ingest route also asks it before the call is metered). */
    admission: new IngestAdmission(
      outbox,
      loopDelay,
      {
        backlogLimit: config.ingestBacklogLimit,
        maxBacklogMs: outboxWaitBoundMs(config.maxBacklogMs, eagerWorkflowStart),
        maxLoopDelayMs: config.ingestMaxLoopDelayMs,
        // A worker here starts an account's deliveries while one of its endpoints has no place: they wait throttled, in Temporal.
        placesWaitMs: eagerWorkflowStart ? (accountId) => attemptSlots.expectedWaitMs(accountId, () => startWindow.waitingOf(accountId)) : undefined,
        lagging: laggingAccounts && ((accountId) => laggingAccounts.refuses(accountId)),
      },
      ingestConcurrencyTuning(eagerWorkflowStart),
    ),
    startWindow,
    attemptSlots,
    /** Accounts the workers see lagging, refused by admission; with a worker here, its outbox shows that. */
    laggingAccounts,
    lease,
    recovery: new CrashRecovery({
      ...repositories,
      instances: repositories.apiInstances,
      outbox,
      self: lease,
      logger,
      clock: systemClock,
    }),
    retention: new EventRetention({
      ...repositories,
      fifo,
      retentionMs: config.eventRetentionMs,
      logger,
      clock: systemClock,
    }),
    scheduler,
    /** The turns of FIFO endpoints' deliveries: places at ingest, turns and wake-ups in the worker. */
    fifo,
  };
}

export type Services = ReturnType<typeof buildServices>;

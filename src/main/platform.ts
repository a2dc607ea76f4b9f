import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { Db, MongoClient } from 'mongodb';
import { createDeliveryActivities } from '../../activities/delivery-activities';
import { createRecoveryActivities } from '../../activities/recovery-activities';
import { createHttpSender, HttpSender } from '../../activities/http-sender';
import type { Config } from '../config/config';
import type { LimitAdmitter } from '../domain/limits/admission';
import { createDnsLookup } from '../domain/webhooks/dns-lookup';
import { createSecretBox } from '../domain/webhooks/secret-box';
import { EmbeddedServer, startFerretDb, startTemporalDevServer } from '../infra/embedded-servers';
import { createLogger, Logger } from '../infra/logger';
import { provision } from '../infra/provision';
import { loadOrCreateSecretsKey } from '../infra/secrets-key';
import { toolPaths } from '../infra/tools';
import { Accounts } from '../persistence/accounts';
import { ApiKeys } from '../persistence/api-keys';
import { DashboardSessions } from '../persistence/dashboard-sessions';
import { DashboardInvites } from '../persistence/dashboard-invites';
import { DashboardSignInAttempts } from '../persistence/dashboard-sign-in-attempts';
import { CatalogEntries } from '../persistence/catalog-entries';
import { Deliveries } from '../persistence/deliveries';
import { ApiInstances } from '../persistence/api-instances';
import { EndpointHealthLog } from '../persistence/endpoint-health-log';
import { Endpoints } from '../persistence/endpoints';
import { Events } from '../persistence/events';
import { IdempotencyRecords } from '../persistence/idempotency-records';
import { BlockLimiter } from '../persistence/block-limiter';
import { LimitBlocks } from '../persistence/limit-blocks';
import { LimitWindows } from '../persistence/limit-windows';
import { connectMongo, pingMongo } from '../persistence/mongo';
import { stopExpirySweepers } from '../persistence/ttl';
import { AccountService } from '../services/account-service';
import { syncAndLoadCatalog } from '../services/catalog-loader';
import { DashboardAuthService } from '../services/dashboard-auth-service';
import { DashboardInviteService } from '../services/dashboard-invite-service';
import { AccountEndpointsCache } from '../services/account-endpoints-cache';
import { CrashRecovery } from '../services/crash-recovery';
import { DeliveryOutbox } from '../services/delivery-outbox';
import { DeliveryStartWindow } from '../services/delivery-start-window';
import { InstanceLease } from '../services/instance-lease';
import { EndpointService } from '../services/endpoint-service';
import { EventService } from '../services/event-service';
import { RecoveryService } from '../services/recovery-service';
import { KeyAuthenticator } from '../services/key-authenticator';
import { connectTemporal, pingTemporal } from '../temporal/client';
import { DeliveryScheduler } from '../temporal/delivery-scheduler';
import { RecoveryScheduler } from '../temporal/recovery-scheduler';
import { createDeliveryWorker, ensureRuntime, runWorker } from '../temporal/worker';
import { AnyRoute, createApp } from '../transport/http/app';
import { dashboardMiddleware } from '../transport/http/dashboard';
import { startMetricsServer } from '../transport/http/metrics-server';
import { setDispatchBacklogSource } from '../infra/metrics';
import { estimatorAccess } from '../transport/http/middleware/estimator-access';
import { keyScoped } from '../transport/http/middleware/key-scoped';
import { createRegistry, generateDocument } from '../transport/http/openapi';
import { costEstimatorRoutes } from '../transport/http/routes/cost-estimator';
import { docsPage, openApiRoute } from '../transport/http/routes/docs';
import { healthz, readyz } from '../transport/http/routes/health';
import { endpointRoutes } from '../transport/http/routes/webhooks/endpoints';
import { eventRoutes } from '../transport/http/routes/webhooks/events';
import { recoveryRoutes } from '../transport/http/routes/webhooks/recovery';

export interface Roles {
  api: boolean;
  worker: boolean;
}

/** Everything the platform is made of, wired once; tests start it the same way `npm start` does. */
export interface Platform {
  config: Config;
  logger: Logger;
  db: Db;
  mongo: MongoClient;
  temporal: Client;
  temporalAddress: string;
  mongoUri: string;
  embedded: EmbeddedServer[];
  repositories: Repositories;
  services: Services;
  /** Set when the API role runs. */
  apiUrl?: string;
  routes?: AnyRoute[];
  worker?: Worker;
  /** Set when METRICS_PORT is: this process's `GET /metrics`. */
  metricsUrl?: string;
  stop(): Promise<void>;
}

export interface Repositories {
  accounts: Accounts;
  apiKeys: ApiKeys;
  endpoints: Endpoints;
  endpointHealth: EndpointHealthLog;
  events: Events;
  deliveries: Deliveries;
  apiInstances: ApiInstances;
  idempotency: IdempotencyRecords;
  limitWindows: LimitWindows;
  limitBlocks: LimitBlocks;
}

export interface Services {
  accounts: AccountService;
  authenticator: KeyAuthenticator;
  limiter: LimitAdmitter;
  endpoints: EndpointService;
  events: EventService;
  /** Bulk recovery of an endpoint's failed deliveries (not crash recovery: that is `recovery`). */
  bulkRecovery: RecoveryService;
  outbox: DeliveryOutbox;
  lease: InstanceLease;
  recovery: CrashRecovery;
  scheduler: DeliveryScheduler;
}

export interface StartOptions {
  roles: Roles;
  logger?: Logger;
  /** Injected clock for limits and idempotency windows (tests of their boundaries); delivery timing stays real. */
  clock?: () => Date;
}

export async function startPlatform(config: Config, options: StartOptions): Promise<Platform> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const embedded: EmbeddedServer[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err) => logger.warn({ err }, 'error while stopping'));
    for (const server of embedded.reverse()) await server.stop().catch((err) => logger.warn({ err }, 'error while stopping a server'));
  };

  try {
    // 1. Servers: the given ones, or embedded ones whose state lives under DATA_DIR.
    if (!config.temporal.address || !config.mongo.uri) {
      await provision({ need: { temporalCli: !config.temporal.address, ferretDb: !config.mongo.uri, temporalTestServer: false } });
    }
    const tools = toolPaths();
    if (!config.mongo.uri) {
      embedded.push(await startFerretDb({ binary: tools.ferretDb, dataDir: config.dataDir, port: config.mongo.embeddedPort }));
    }
    const mongoUri = config.mongo.uri ?? embedded[embedded.length - 1].address;
    if (!config.temporal.address) {
      embedded.push(
        await startTemporalDevServer({
          binary: tools.temporalCli,
          dataDir: config.dataDir,
          port: config.temporal.embeddedPort,
          uiPort: config.temporal.embeddedUiPort,
        }),
      );
    }
    const temporalAddress = config.temporal.address ?? `127.0.0.1:${config.temporal.embeddedPort}`;

    // 2. Connections and repositories.
    const { client: mongo, db } = await connectMongo(mongoUri, config.mongo.dbName);
    cleanups.push(() => mongo.close());
    const repositories: Repositories = {
      accounts: new Accounts(db),
      apiKeys: new ApiKeys(db),
      endpoints: new Endpoints(db),
      endpointHealth: new EndpointHealthLog(db),
      events: new Events(db),
      deliveries: new Deliveries(db),
      apiInstances: new ApiInstances(db),
      idempotency: new IdempotencyRecords(db),
      limitWindows: new LimitWindows(db),
      limitBlocks: new LimitBlocks(db),
    };
    for (const repo of Object.values(repositories)) await repo.ensureIndexes();
    cleanups.push(async () => stopExpirySweepers());

    ensureRuntime();
    const temporalConnection = await connectTemporal(temporalAddress, config.temporal.namespace, { native: options.roles.worker });
    cleanups.push(() => temporalConnection.close());
    const temporal = temporalConnection.client;
    const secretBox = createSecretBox(await loadOrCreateSecretsKey(config.secretsEncryptionKey, config.dataDir));

    // 3. Services.
    const scheduler = new DeliveryScheduler(temporal, config.temporal.taskQueue, { eager: options.roles.worker && options.roles.api });
    const authenticator = new KeyAuthenticator(repositories.apiKeys, repositories.accounts);
    const limiter = new BlockLimiter(repositories.limitBlocks, repositories.limitWindows, options.clock);
    cleanups.push(() => limiter.close());
    // Only a process that runs a worker sees its attempts begin, so only it limits its starts.
    const startWindow = new DeliveryStartWindow(options.roles.worker ? config.dispatchStartWindow : 0, );
    cleanups.push(async () => startWindow.close());
    const outbox = new DeliveryOutbox(scheduler, logger, {
      backlogLimit: config.ingestBacklogLimit,
      startConcurrency: config.dispatchStartConcurrency,
      window: startWindow,
    });
    const lease = new InstanceLease(
      repositories.apiInstances,
      async () => outbox.watermark(await repositories.events.highestIdTried()),
      { ttlMs: config.instanceLeaseTtlMs, renewMs: Math.max(250, Math.floor(config.instanceLeaseTtlMs / 5)) },
      logger,
    );
    const recovery = new CrashRecovery({
      instances: repositories.apiInstances,
      events: repositories.events,
      idempotency: repositories.idempotency,
      outbox,
      self: lease,
      logger,
    });
    const endpointsCache = new AccountEndpointsCache(repositories.endpoints);
    const dnsLookup = createDnsLookup(config.dns);
    const services: Services = {
      accounts: new AccountService(repositories.accounts, repositories.apiKeys, (hash) => authenticator.invalidate(hash)),
      authenticator,
      limiter,
      endpoints: new EndpointService(repositories.endpoints, repositories.deliveries, scheduler, secretBox, endpointsCache, {
        allowPrivateNetworks: config.delivery.allowPrivateNetworks,
        maxEndpointsPerAccount: config.maxEndpointsPerAccount,
        autoDisableAfterMs: config.endpointAutoDisableAfterMs,
        dnsLookup,
      }, repositories.endpointHealth),
      events: new EventService({
        events: repositories.events,
        endpoints: repositories.endpoints,
        deliveries: repositories.deliveries,
        idempotency: repositories.idempotency,
        endpointsCache,
        outbox,
        lease,
        scheduler,
        clock: options.clock,
      }),
      bulkRecovery: new RecoveryService(
        repositories.endpoints,
        repositories.deliveries,
        new RecoveryScheduler(temporal, config.temporal.taskQueue),
        options.clock,
      ),
      outbox,
      lease,
      recovery,
      scheduler,
    };

    const platform: Platform = {
      config,
      logger,
      db,
      mongo,
      temporal,
      temporalAddress,
      mongoUri,
      embedded,
      repositories,
      services,
      stop: stopAll,
    };

    if (config.metrics.port !== undefined) {
      const metricsServer = await startMetricsServer({ ...config.metrics, port: config.metrics.port }, logger);
      platform.metricsUrl = metricsServer.url;
      cleanups.push(() => metricsServer.close());
    }

    // 4. Worker role: runs delivery workflows and their activities.
    if (options.roles.worker) {
      const sender: HttpSender = createHttpSender({ allowPrivateNetworks: config.delivery.allowPrivateNetworks, lookup: dnsLookup });
      const worker = await createDeliveryWorker({
        connection: temporalConnection.native!,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
        activities: {
          ...createDeliveryActivities({
            ...repositories,
            secretBox,
            sender,
            autoDisable: { afterMs: config.endpointAutoDisableAfterMs, disable: (accountId, id) => services.endpoints.disableForFailures(accountId, id) },
          }),
          ...createRecoveryActivities({ retry: (accountId, eventId, endpointId) => services.events.retry(accountId, eventId, endpointId) }),
        },
        onActivityStarted: (workflowId) => startWindow.release(workflowId),
      });
      const running = runWorker(worker, (err) => logger.error({ err }, 'the delivery worker stopped with an error'));
      platform.worker = worker;
      cleanups.push(async () => {
        // Drain: in-flight activities finish (or time out) before the worker stops.
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
        await sender.close();
      });
    }

    // 5. API role: HTTP server and the dispatch sweep.
    if (options.roles.api) {
      const catalog = await syncAndLoadCatalog(new CatalogEntries(db), logger);
      const registry = createRegistry();
      let document: object | undefined;
      const getDocument = () => (document ??= generateDocument(registry));
      const routes: AnyRoute[] = [
        healthz,
        readyz({ mongo: () => pingMongo(db), temporal: () => pingTemporal(temporal) }),
        openApiRoute(getDocument),
        docsPage(getDocument),
        ...endpointRoutes(services.endpoints),
        ...recoveryRoutes(services.bulkRecovery),
        ...eventRoutes(services.events),
        ...costEstimatorRoutes({ catalog }),
      ] as AnyRoute[];
      // Dashboard (HTML under /dashboard): its own sessions and sign-in throttle records.
      const dashboardSessions = new DashboardSessions(db);
      const dashboardAttempts = new DashboardSignInAttempts(db);
      await dashboardSessions.ensureIndexes();
      await dashboardAttempts.ensureIndexes();
      const dashboardInvites = new DashboardInvites(db);
      await dashboardInvites.ensureIndexes();
      const dashboard = dashboardMiddleware({
        auth: new DashboardAuthService(repositories.accounts, services.accounts, dashboardSessions, dashboardAttempts),
        invites: new DashboardInviteService(repositories.accounts, dashboardInvites),
        accounts: services.accounts,
        authenticator,
        endpoints: services.endpoints,
        events: services.events,
        recovery: services.bulkRecovery,
        limiter,
        catalog: async () => catalog,
        logger,
      });
      // The lease exists before the first ingest; on stop (after the server closed) the outbox
      // drains and the lease is released, or left to expire so another process recovers the rest.
      await lease.start();
      setDispatchBacklogSource(async () => outbox.backlog);
      cleanups.push(async () => {
        const drained = await outbox.drain(10_000);
        await lease.stop({ release: drained });
      });
      const app = createApp({ logger, registry, routes, trustProxy: config.trustProxy, trustProxyHops: config.trustProxyHops, guards: [keyScoped(authenticator, limiter), estimatorAccess(authenticator, limiter)], before: [dashboard] });
      const server: Server = await new Promise((resolve, reject) => {
        const s = app.listen(config.port, config.host, () => resolve(s));
        s.once('error', reject);
      });
      server.keepAliveTimeout = 65_000;
      const { port } = server.address() as AddressInfo;
      platform.apiUrl = `http://${config.host}:${port}`;
      platform.routes = routes;
      cleanups.push(
        () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
          }),
      );
      // Recovery runs beside serving (a first sweep at once), never in the way of start-up.
      recovery.start(config.dispatchSweepIntervalMs);
      cleanups.push(() => recovery.stop());
    }
    return platform;
  } catch (err) {
    await stopAll();
    throw err;
  }
}

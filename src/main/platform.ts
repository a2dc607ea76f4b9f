import type { Client } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import type { Db, MongoClient } from 'mongodb';
import type { Config } from '../config/config';
import { createDnsLookup } from '../domain/webhooks/dns-lookup';
import { createSecretBox } from '../domain/webhooks/secret-box';
import type { EmbeddedServer } from '../infra/embedded-servers';
import { EventLoopDelay } from '../infra/event-loop-delay';
import { createLogger, Logger } from '../infra/logger';
import { loadOrCreateSecretsKey } from '../infra/secrets-key';
import { connectMongo } from '../persistence/mongo';
import { ExpirySweepers } from '../persistence/store-primitives';
import { connectTemporal } from '../temporal/client';
import { ensureRuntime } from '../temporal/worker';
import type { AnyRoute } from '../transport/http/app';
import { startMetricsServer } from '../transport/http/metrics-server';
import { startApiRole } from './api-role';
import { startServers } from './embedded';
import { buildServices, openRepositories, Repositories, Services } from './wiring';
import { startWorkerRole } from './worker-role';

export type { Repositories, Services } from './wiring';

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

export interface StartOptions {
  roles: Roles;
  logger?: Logger;
  /** Injected clock for limits and idempotency windows (tests of their boundaries); delivery timing stays real. */
  clock?: () => Date;
}

/**
 * Starts the platform in four steps: servers (embedded or given), connections and repositories,
 * services (src/main/wiring.ts), then the roles asked for (api-role.ts, worker-role.ts).
 * Whatever started is stopped in reverse order, on stop() or when a later step fails.
 */
export async function startPlatform(config: Config, options: StartOptions): Promise<Platform> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const embedded: EmbeddedServer[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err) => logger.warn({ err }, 'error while stopping'));
    for (const server of embedded.reverse()) await server.stop().catch((err) => logger.warn({ err }, 'error while stopping a server'));
  };

  try {
    // 1. Servers.
    const { mongoUri, temporalAddress } = await startServers(config, embedded);

    // 2. Connections and repositories.
    const { client: mongo, db } = await connectMongo(mongoUri, config.mongo.dbName);
    cleanups.push(() => mongo.close());
    const expiry = new ExpirySweepers();
    cleanups.push(async () => expiry.stop());
    const repositories = await openRepositories(db, expiry);

    ensureRuntime(config.temporal.sdkLogLevel);
    const temporalConnection = await connectTemporal(temporalAddress, config.temporal.namespace, { native: options.roles.worker });
    cleanups.push(() => temporalConnection.close());
    const temporal = temporalConnection.client;
    const secretBox = createSecretBox(await loadOrCreateSecretsKey(config.secretsEncryptionKey, config.dataDir));
    const dnsLookup = createDnsLookup(config.dns);
    // Measured from when the roles are up (below): building the workflow bundle and connecting
    // stall the loop for seconds at start, and admission would refuse the first events for it.
    const loopDelay = new EventLoopDelay();
    cleanups.push(async () => loopDelay.stop());

    // 3. Services.
    const services = buildServices({
      config,
      logger,
      temporal,
      repositories,
      secretBox,
      dnsLookup,
      eagerWorkflowStart: options.roles.worker && options.roles.api,
      loopDelay,
      clock: options.clock,
    });
    cleanups.push(() => services.limiter.close());
    cleanups.push(async () => services.startWindow.close());

    const platform: Platform = { config, logger, db, mongo, temporal, temporalAddress, mongoUri, embedded, repositories, services, stop: stopAll };

    if (config.metrics.port !== undefined) {
      const metricsServer = await startMetricsServer({ ...config.metrics, port: config.metrics.port }, logger);
      platform.metricsUrl = metricsServer.url;
      cleanups.push(() => metricsServer.close());
    }

    // 4. Roles.
    if (options.roles.worker) {
      const role = await startWorkerRole({
        config,
        logger,
        connection: temporalConnection.native!,
        repositories,
        services,
        secretBox,
        dnsLookup,
        onActivityStarted: (workflowId) => services.startWindow.release(workflowId),
      });
      platform.worker = role.worker;
      cleanups.push(role.stop);
    }
    if (options.roles.api) {
      const role = await startApiRole({ config, logger, db, temporal, repositories, services, expiry });
      platform.apiUrl = role.url;
      platform.routes = role.routes;
      cleanups.push(role.stop);
    }
    loopDelay.start();
    return platform;
  } catch (err) {
    await stopAll();
    throw err;
  }
}

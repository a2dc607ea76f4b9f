import type { Client } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import type { Db, MongoClient } from 'mongodb';
import type { Config } from '../config/config';
import { createDnsLookup } from '../infra/dns-lookup';
import { createAcceptanceSeal } from '../domain/webhooks/acceptance-seal';
import { createSecretBox } from '../domain/webhooks/secret-box';
import type { EmbeddedServer } from '../infra/embedded-servers';
import type { Tracing } from '../infra/tracing/start-tracing';
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
import { IN_FLIGHT_GRACE_MS, SERVER_STOP_MS, settlesBy } from './stop-budget';
import { buildServices, openRepositories, Repositories, Services } from './wiring';
import { startWorkerRole } from './worker-role';

export interface Roles {
  api: boolean;
  worker: boolean;
}

/** Everything the platform is made of, wired once; tests start it the same way `npm start` does. */
export interface Platform {
  config: Config;
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
  stop(options?: StopOptions): Promise<void>;
}

export interface StopOptions {
  /** Until when work in flight may finish (ms since the epoch); default IN_FLIGHT_GRACE_MS from now. */
  deadline?: number;
  /** Told one line per step as it ends (run-role.ts prints them). */
  report?: (line: string) => void;
}

export interface StartOptions {
  roles: Roles;
  logger?: Logger;
  clock?: () => Date;
  /** Started by the entry when config.tracing is set (enter-roles.ts); flushed as the platform stops. */
  tracing?: Tracing;
  /** Told when the worker role ends without the platform's stop (run-role.ts then stops the process). */
  onWorkerLost?: () => void;
}

/** Whatever started is stopped, on stop() or when a later step fails: the roles under one deadline, then connections, then servers. */
export async function startPlatform(config: Config, options: StartOptions): Promise<Platform> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const embedded: EmbeddedServer[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  const roleStops: Array<(deadline: number) => Promise<string>> = [];
  const atStop: Array<() => void> = [];
  const stopAll = async ({ deadline = Date.now() + IN_FLIGHT_GRACE_MS, report = () => undefined }: StopOptions = {}) => {
    for (const now of atStop) now();
    const lines = await Promise.all(roleStops.map((stop) => stop(deadline).catch((err) => logger.warn({ err }, 'error while stopping a role'))));
    for (const line of lines) if (line) report(line);
    // Closing a connection is quick unless its server hangs: then the backstop (run-role.ts) ends it.
    const closeBy = Math.max(deadline, Date.now()) + CLOSE_MS;
    for (const cleanup of cleanups.reverse()) {
      const closing = cleanup().catch((err) => logger.warn({ err }, 'error while stopping'));
      if (!(await settlesBy(closing, closeBy))) logger.warn('a connection did not close in time; going on');
    }
    await Promise.all(
      embedded.map(async (server) => {
        const began = Date.now();
        const how = await server.stop(SERVER_STOP_MS).catch((err) => logger.warn({ err }, 'error while stopping a server'));
        if (how) report(`${serverLabel(server)} ${how} (${((Date.now() - began) / 1000).toFixed(1)} s).`);
      }),
    );
  };
  try {
    const { mongoUri, temporalAddress } = await startServers(config, embedded);

    const { client: mongo, db } = await connectMongo(mongoUri, config.mongo.dbName);
    cleanups.push(() => mongo.close());
    const expiry = new ExpirySweepers();
    cleanups.push(async () => expiry.stop());
    const repositories = await openRepositories(db, expiry);

    ensureRuntime(config.temporal.sdkLogLevel);
    const tracing = options.tracing;
    // Cleanups run in reverse: this one after Temporal's connection closes, so the stop's own spans go out too.
    if (tracing) cleanups.push(() => tracing.shutdown());
    const temporalConnection = await connectTemporal(temporalAddress, config.temporal.namespace, { native: options.roles.worker, interceptors: tracing?.clientInterceptors });
    // Left open when a worker still holds it past the deadline: the process exits (or the test ends) with it.
    let connectionHeld = () => false;
    cleanups.push(async () => {
      if (!connectionHeld()) await temporalConnection.close();
    });
    const temporal = temporalConnection.client;
    const secretsKey = await loadOrCreateSecretsKey(config.secretsEncryptionKey, config.dataDir);
    const secretBox = createSecretBox(secretsKey);
    const acceptanceSeal = createAcceptanceSeal(secretsKey);
    const dnsLookup = createDnsLookup(config.dns);
    // Started once the roles are up: start-up stalls the loop for seconds, and admission would refuse events.
    const loopDelay = new EventLoopDelay();
    cleanups.push(async () => loopDelay.stop());

    const services = buildServices({
      config,
      logger,
      temporal,
      repositories,
      secretBox,
      acceptanceSeal,
      dnsLookup,
      eagerWorkflowStart: options.roles.worker && options.roles.api,
      loopDelay,
      clock: options.clock,
    });
    cleanups.push(() => services.limiter.close());
    // Workflow starts of acknowledged events are no longer paced by the worker, which is stopping too.
    atStop.push(() => services.startWindow.close());

    const platform: Platform = { config, db, mongo, temporal, temporalAddress, mongoUri, embedded, repositories, services, stop: stopAll };

    if (config.metrics.port !== undefined) {
      const metricsServer = await startMetricsServer({ ...config.metrics, port: config.metrics.port }, logger);
      platform.metricsUrl = metricsServer.url;
      cleanups.push(() => metricsServer.close());
    }

    if (options.roles.worker) {
      const role = await startWorkerRole({
        config,
        logger,
        connection: temporalConnection.native!,
        repositories,
        services,
        secretBox,
        acceptanceSeal,
        dnsLookup,
        onActivityStarted: (workflowId) => services.startWindow.release(workflowId),
        eagerStarts: options.roles.api,
        tracing,
        onLost: () => {
          logger.error('the delivery worker stopped without the platform stopping');
          options.onWorkerLost?.();
        },
      });
      platform.worker = role.worker;
      roleStops.push(role.stop);
      connectionHeld = role.holdsConnection;
    }
    if (options.roles.api) {
      const role = await startApiRole({ config, logger, db, temporal, repositories, services, expiry });
      platform.apiUrl = role.url;
      platform.routes = role.routes;
      roleStops.push(role.stop);
    }
    loopDelay.start();
    return platform;
  } catch (err) {
    await stopAll();
    throw err;
  }
}

const CLOSE_MS = 1_000;

export function serverLabel(server: Pick<EmbeddedServer, 'name'>): string {
  return server.name === 'temporal' ? 'Temporal dev server' : 'FerretDB';
}

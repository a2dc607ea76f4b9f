import { Config, mongoUriOf, temporalAddressOf } from '../config/config';
import { createDnsLookup } from '../infra/dns-lookup';
import { createAcceptanceSeal } from '../domain/webhooks/acceptance-seal';
import { createSecretBox } from '../domain/webhooks/secret-box';
import { ChildWatch, EmbeddedServer, startFerretDb, startTemporalDevServer } from '../infra/embedded-servers';
import type { Tracing } from '../infra/tracing/start-tracing';
import { EventLoopDelay } from '../infra/event-loop-delay';
import { createLogger, Logger } from '../infra/logger';
import { provision } from '../infra/provision';
import { loadOrCreateSecretsKey } from '../infra/secrets-key';
import { connectMongo } from '../persistence/mongo';
import { connectTemporal } from '../temporal/client';
import { ensureRuntime } from '../temporal/worker';
import { startMetricsServer } from '../transport/http/metrics-server';
import { startApiRole } from './api-role';
import { IN_FLIGHT_GRACE_MS, SERVER_STOP_MS, settlesBy } from './stop-budget';
import { buildServices, openRepositories } from './wiring';
import { startWorkerRole } from './worker-role';

export interface Roles {
  api: boolean;
  worker: boolean;
}

/** Everything the platform is made of, wired once; tests start it the same way `npm start` does. */
export type Platform = Awaited<ReturnType<typeof startPlatform>>;

/** Whatever started is stopped, on stop() or when a later step fails: the roles under one deadline, then connections, then servers. */
export async function startPlatform(config: Config, options: {
  roles: Roles;
  logger?: Logger;
  clock?: () => Date;
  /** Started by the entry when config.tracing is set (enter-roles.ts); flushed as the platform stops. */
  tracing?: Tracing;
  /** Told when the worker role ends, or an embedded server stays down, without the platform's stop (enter-roles.ts then stops the process). */
  onLost?: (why: string) => void;
}) {
  const logger = options.logger ?? createLogger(config.logLevel);
  const embedded: EmbeddedServer[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  let workerRole: Awaited<ReturnType<typeof startWorkerRole>> | undefined;
  let api: Awaited<ReturnType<typeof startApiRole>> | undefined;
  const atStop: Array<() => void> = [];
  // Work in flight may finish until `deadline` (ms since the epoch); `report` is told one line per step as it ends (enter-roles.ts prints them).
  const stopAll = async ({ deadline = Date.now() + IN_FLIGHT_GRACE_MS, report = () => undefined }: { deadline?: number; report?: (line: string) => void } = {}) => {
    for (const now of atStop) now();
    const lines = await Promise.all([workerRole, api].map((role) => role?.stop(deadline).catch((err) => logger.warn({ err }, 'error while stopping a role'))));
    for (const line of lines) if (line) report(line);
    // Closing a connection is quick unless its server hangs: then the backstop (enter-roles.ts) ends it.
    const closeBy = Math.max(deadline, Date.now()) + CLOSE_MS;
    for (const cleanup of cleanups.reverse()) {
      const closing = cleanup().catch((err) => logger.warn({ err }, 'error while stopping'));
      if (!(await settlesBy(closing, closeBy))) logger.warn('a connection did not close in time; going on');
    }
    await Promise.all(
      embedded.map(async (server) => {
        const began = Date.now();
        const how = await server.stop(SERVER_STOP_MS).catch((err) => logger.warn({ err }, 'error while stopping a server'));
        if (how) report(`${server.label} ${how} (${((Date.now() - began) / 1000).toFixed(1)} s).`);
      }),
    );
  };
  try {
    await provision({ need: { temporalCli: !config.temporal.address, ferretDb: !config.mongo.uri, temporalTestServer: false } });
    // Each embedded server joins `embedded` once it runs, so that a later failure stops it.
    const watch: ChildWatch = {
      restarted: (server, exit) => logger.warn({ server, exit }, 'an embedded server ended on its own and was started again'),
      lost: (why) => {
        logger.error({ why }, 'an embedded server stays down');
        options.onLost?.(why);
      },
    };
    if (!config.mongo.uri) embedded.push(await startFerretDb({ dataDir: config.dataDir, port: config.mongo.embeddedPort, watch }));
    if (!config.temporal.address) {
      const { embeddedPort: port, embeddedUiPort: uiPort, embeddedMetricsPort: metricsPort } = config.temporal;
      embedded.push(await startTemporalDevServer({ dataDir: config.dataDir, port, uiPort, metricsPort, watch }));
    }
    const mongoUri = mongoUriOf(config);
    const temporalAddress = temporalAddressOf(config);

    const { client: mongo, db } = await connectMongo(mongoUri, config.mongo.dbName);
    cleanups.push(() => mongo.close());
    const repositories = await openRepositories(db);

    ensureRuntime(config.temporal.sdkLogLevel);
    const tracing = options.tracing;
    // Cleanups run in reverse: this one after Temporal's connection closes, so the stop's own spans go out too.
    if (tracing) cleanups.push(() => tracing.shutdown());
    const temporalConnection = await connectTemporal(temporalAddress, config.temporal.namespace, { native: options.roles.worker, interceptors: tracing?.clientInterceptors });
    // Left open when a worker still holds it past the deadline: the process exits (or the test ends) with it.
    cleanups.push(async () => {
      if (!workerRole?.holdsConnection()) await temporalConnection.close();
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
    cleanups.push(() => services.schemaChecks.close());
    // Workflow starts of acknowledged events are no longer paced by the worker, which is stopping too.
    atStop.push(() => services.startWindow.close());

    const metrics = config.metrics.port === undefined ? undefined : await startMetricsServer({ ...config.metrics, port: config.metrics.port }, logger);
    if (metrics) cleanups.push(() => metrics.close());

    if (options.roles.worker) {
      workerRole = await startWorkerRole({
        config,
        logger,
        connection: temporalConnection.native!,
        repositories,
        services,
        eagerStarts: options.roles.api,
        tracing,
        onLost: () => {
          logger.error('the delivery worker stopped without the platform stopping');
          options.onLost?.('The delivery worker stopped');
        },
      });
    }
    if (options.roles.api) api = await startApiRole({ config, logger, db, temporal, repositories, services });
    loopDelay.start();
    return {
      config, db, mongo, temporal, temporalAddress, mongoUri, embedded, repositories, services,
      apiUrl: api?.url,
      routes: api?.routes,
      worker: workerRole?.worker,
      /** Set when METRICS_PORT is: this process's `GET /metrics`. */
      metricsUrl: metrics?.url,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

const CLOSE_MS = 1_000;

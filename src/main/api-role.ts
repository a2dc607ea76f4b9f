import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { Config } from '../config/config';
import { systemClock } from '../domain/clock';
import { loadCatalogFile } from '../infra/load-catalog-file';
import type { Logger } from '../infra/logger';
import { setDispatchBacklogSource } from '../infra/metrics';
import { CatalogEntries } from '../persistence/catalog-entries';
import { DashboardInvites } from '../persistence/dashboard-invites';
import { DashboardSessions } from '../persistence/dashboard-sessions';
import { DashboardSignInAttempts } from '../persistence/dashboard-sign-in-attempts';
import { isStoreUnreachable, pingMongo } from '../persistence/mongo';
import { DashboardAuthService } from '../services/dashboard-auth-service';
import { DashboardInviteService } from '../services/dashboard-invite-service';
import { isTemporalUnreachable, pingTemporal } from '../temporal/client';
import { createApp } from '../transport/http/app';
import { apiRoutes } from '../transport/http/api-routes';
import { dashboardMiddleware } from '../transport/http/dashboard';
import { portalMiddleware } from '../transport/http/portal';
import { estimatorAccess } from '../transport/http/middleware/estimator-access';
import { keyScoped } from '../transport/http/middleware/key-scoped';
import { documentOf } from '../transport/http/openapi';
import { ingestAdmission, ingestShed } from '../transport/http/routes/webhooks/ingest-gate';
import { listenApi } from './api-server';
import { settlesBy } from './stop-budget';
import type { Repositories, Services } from './wiring';

/** The API role: the HTTP server (API, docs, dashboard), the instance lease, the crash-recovery sweep and event retention. */
export async function startApiRole({ config, logger, db, temporal, repositories, services }: {
  config: Config;
  logger: Logger;
  db: Db;
  temporal: Client;
  repositories: Repositories;
  services: Services;
}) {
  const { authenticator, invalidations, limiter, lease, outbox, recovery, retention } = services;
  services.schemaChecks.warm();
  // Synced into the database and read back, so what the API serves is exactly what the database holds.
  const catalogEntries = new CatalogEntries(db);
  const fromFile = await loadCatalogFile();
  await catalogEntries.ensureIndexes();
  logger.info(await catalogEntries.syncCatalog(fromFile), 'cost catalog synced');
  const catalog = await catalogEntries.loadCatalog();
  let document: object | undefined;
  const routes = apiRoutes({
    ...services,
    health: { mongo: () => pingMongo(db), temporal: () => pingTemporal(temporal) },
    getDocument: () => (document ??= documentOf(routes)),
    catalog,
    publicOrigin: config.publicOrigin,
  });

  const sessions = new DashboardSessions(db);
  const attempts = new DashboardSignInAttempts(db);
  const invites = new DashboardInvites(db);
  for (const repo of [sessions, attempts, invites]) await repo.ensureIndexes();
  // A call that finds the store or Temporal down answers 503 (dependency-down.ts).
  const unreachable = (err: unknown) => isStoreUnreachable(err) || isTemporalUnreachable(err);
  const dashboard = dashboardMiddleware({
    ...services,
    auth: new DashboardAuthService({ accounts: repositories.accounts, accountService: services.accounts, sessions, attempts }),
    invites: new DashboardInviteService({ accounts: repositories.accounts, invites, sessions, clock: systemClock }),
    catalog,
    logger,
    publicOrigin: config.publicOrigin,
    unreachable,
  });

  // The lease must exist before the first ingest; from here on, a failed start stops what it started.
  await lease.start();
  const api = await (async () => {
    await invalidations.start();
    setDispatchBacklogSource(() => outbox.backlog);
    const app = createApp({
      logger,
      routes,
      trustProxy: config.trustProxy,
      trustProxyHops: config.trustProxyHops,
      guards: [keyScoped(authenticator, limiter, ingestAdmission(services.admission), services.portalSessions), estimatorAccess(authenticator, limiter)],
      before: [dashboard, portalMiddleware(services)],
      unreachable,
    });
    const shed = ingestShed({ authenticator, limiter, admission: services.admission });
    const koa = app.callback();
    return listenApi((req, res) => shed(req, res) || void koa(req, res), config.port, config.host);
  })().catch(async (err: unknown) => {
    await invalidations.stop();
    await lease.stop({ release: await outbox.drain(10_000) });
    throw err;
  });
  // Idle keep-alive connections may stay long: a stop closes them at once (api-server.ts).
  api.server.keepAliveTimeout = 65_000;
  const { port } = api.server.address() as AddressInfo;

  // Recovery runs beside serving (a first sweep at once), never in the way of start-up.
  const loops = [recovery.start(config.dispatchSweepIntervalMs), retention.start(), services.laggingAccounts?.start()];
  return {
    url: `http://${config.host}:${port}`,
    routes,
    /** Work in flight has until `deadline`; what the outbox has not started is left to crash recovery. */
    stop: async (deadline: number): Promise<string> => {
      const calls = api.stop(deadline);
      await settlesBy(Promise.all(loops.map((loop) => loop?.stop())), deadline);
      const { answered, cut, refused } = await calls;
      await invalidations.stop();
      const drained = await outbox.drain(Math.max(0, deadline - Date.now()));
      await lease.stop({ release: drained });
      return (
        `API: stopped taking calls; ${answered} in flight answered, ${cut} cut at the deadline (not acknowledged), ${refused} refused (503) after the stop began; ` +
        (drained ? 'every acknowledged event handed to Temporal.' : 'acknowledged events not yet handed to Temporal are left to crash recovery (the lease expires).')
      );
    },
  };
}

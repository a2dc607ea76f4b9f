import Router from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import { unmatchedRoute } from '../unmatched-route';
import { serveAssets } from './assets';
import { cookieScheme, DASHBOARD_PATH } from './cookies';
import { csrfProtection } from './csrf';
import type { DashboardDeps } from './deps';
import { htmlErrors } from './html-errors';
import { authRoutes } from './routes/auth';
import { costEstimatorRoutes } from './routes/cost-estimator';
import { endpointRoutes } from './routes/endpoints';
import { eventRoutes } from './routes/events';
import { keyRoutes } from './routes/keys';
import { overviewRoutes } from './routes/overview';
import { portalSettingsRoutes } from './routes/portal-settings';
import { tenantRoutes } from './routes/tenants';
import { securityHeaders } from './security-headers';
import { loadSession, signedInRoutes } from './session';
import { readFormOrJsonBody } from '../middleware/json-body';

export function isDashboardPath(path: string): boolean {
  return path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);
}

/** The server-rendered dashboard: identity comes only from the session cookie, never from API keys. */
export function dashboardMiddleware(deps: DashboardDeps): Middleware {
  const router = new Router({ prefix: DASHBOARD_PATH });
  authRoutes(router, deps);
  const pages = signedInRoutes(router);
  overviewRoutes(pages, deps);
  keyRoutes(pages, deps);
  endpointRoutes(pages, deps);
  tenantRoutes(pages, deps);
  eventRoutes(pages, deps);
  portalSettingsRoutes(pages, deps);
  costEstimatorRoutes(pages, deps);

  const unmatched = unmatchedRoute(router, {
    notAllowed: (method) => `${method} is not allowed here.`,
    notFound: () => 'There is no dashboard page at this address.',
  });

  // The dashboard's own stack, ending in its 404/405: a dashboard path never falls through to the API.
  const handle = compose([
    securityHeaders(),
    cookieScheme(deps.publicOrigin),
    htmlErrors(deps.logger, deps.unreachable),
    // After htmlErrors: a body that cannot be read (over 1 MiB, not a form nor JSON) is refused with a page.
    readFormOrJsonBody,
    serveAssets(),
    loadSession(deps.auth),
    csrfProtection(deps.publicOrigin),
    router.routes() as Middleware,
    unmatched,
  ]);
  return async (ctx, next) => {
    if (!isDashboardPath(ctx.path)) return next();
    await handle(ctx, async () => undefined);
  };
}

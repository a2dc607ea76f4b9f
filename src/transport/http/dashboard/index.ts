import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { MethodNotAllowedError, NotFoundError } from '../../../domain/errors';
import { serveAssets } from './assets';
import { DASHBOARD_PATH } from './cookies';
import { csrfProtection } from './csrf';
import type { DashboardDeps } from './deps';
import { htmlErrors } from './html-errors';
import { authRoutes } from './routes/auth';
import { costEstimatorRoutes } from './routes/cost-estimator';
import { endpointRoutes } from './routes/endpoints';
import { eventRoutes } from './routes/events';
import { inviteRoutes } from './routes/invite';
import { keyRoutes } from './routes/keys';
import { overviewRoutes } from './routes/overview';
import { securityHeaders } from './security-headers';
import { loadSession } from './session';

export type { DashboardDeps } from './deps';

export function isDashboardPath(path: string): boolean {
  return path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);
}

/** Runs middleware in order, like Koa's own stack, ending in `last`. */
function chain(middleware: Middleware[], last: Middleware): (ctx: Context) => Promise<void> {
  const all = [...middleware, last];
  const run = (ctx: Context, i: number): Promise<void> => Promise.resolve(all[i](ctx, (() => run(ctx, i + 1)) as Next));
  return (ctx) => run(ctx, 0);
}

/**
 * The server-rendered dashboard under /dashboard. It is not part of the metered API and takes
 * no API keys: identity comes only from the session cookie. Everything else passes through.
 */
export function dashboardMiddleware(deps: DashboardDeps): Middleware {
  const router = new Router({ prefix: DASHBOARD_PATH });
  authRoutes(router, deps);
  inviteRoutes(router, deps);
  overviewRoutes(router, deps);
  keyRoutes(router, deps);
  endpointRoutes(router, deps);
  eventRoutes(router, deps);
  costEstimatorRoutes(router, deps);

  const unmatched: Middleware = async (ctx) => {
    const match = router.match(ctx.path, ctx.method);
    if (match.path.length > 0) {
      throw new MethodNotAllowedError(`${ctx.method} is not allowed here.`, [...new Set(match.path.flatMap((layer) => layer.methods))]);
    }
    throw new NotFoundError('There is no dashboard page at this address.');
  };

  const handle = chain(
    [securityHeaders(), htmlErrors(deps.logger), serveAssets(), loadSession(deps.auth), csrfProtection(), router.routes() as Middleware],
    unmatched,
  );
  return async (ctx, next) => {
    if (!isDashboardPath(ctx.path)) return next();
    await handle(ctx);
  };
}

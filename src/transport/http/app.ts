import Router from '@koa/router';
import Koa from 'koa';
import type { z } from 'zod';
import type { Logger } from '../../infra/logger';
import type { Unreachable } from './dependency-down';
import { errorHandler } from './middleware/error-handler';
import { exactJsonResponses } from './middleware/exact-json-responses';
import { requestId } from './middleware/request-id';
import { mountRoute, RouteDefinition } from './route';
import { serveDocsAssets } from './routes/docs';
import { unmatchedRoute } from './unmatched-route';

export type AnyRoute = RouteDefinition<z.ZodType, z.ZodType, z.ZodType>;

export interface AppOptions {
  logger: Logger;
  routes: AnyRoute[];
  /** Trust X-Forwarded-For for ctx.ip (only behind a proxy you control). */
  trustProxy?: boolean;
  /** With trustProxy: proxies of ours in front; the client is the X-Forwarded-For entry this many from the right (left of it is the client's own). Default 1. */
  trustProxyHops?: number;
  /** Run before routing, so before any body is read (authentication, metering): a call with an unreadable body is still a 401 or metered (CONTRACT §2). */
  guards?: Koa.Middleware[];
  /** Extra middleware before routing (e.g. static dashboard assets). */
  before?: Koa.Middleware[];
  /** A dependency's error that makes a call a 503 (dependency-down.ts). */
  unreachable?: Unreachable;
}

export function createApp(options: AppOptions): Koa {
  const app = new Koa({ proxy: options.trustProxy ?? false, maxIpsCount: options.trustProxyHops ?? 1 });
  // Paths are case-sensitive: `/API/V1/...` is not `/api/v1/...` (and must not reach its handlers unauthenticated).
  const router = new Router({ sensitive: true });
  for (const route of options.routes) mountRoute(router, route);

  app.use(requestId());
  app.use(errorHandler(options.logger, options.unreachable));
  app.use(exactJsonResponses());
  for (const mw of options.guards ?? []) app.use(mw);
  app.use(serveDocsAssets());
  for (const mw of options.before ?? []) app.use(mw);
  app.use(router.routes());
  app.use(
    unmatchedRoute(router, {
      notAllowed: (method, path) => `Method ${method} is not allowed on ${path}.`,
      notFound: (method, path) => `No route for ${method} ${path}.`,
    }),
  );
  // Errors escaping Koa (socket faults) go to the log, never to stdout.
  app.silent = true;
  app.on('error', (err) => options.logger.warn({ err }, 'connection error'));
  return app;
}

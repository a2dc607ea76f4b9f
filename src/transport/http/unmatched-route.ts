import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { DomainError, methodNotAllowed } from '../../domain/errors';

/** Last behind a router: a known path with another method is a 405 (with Allow), anything else a 404. */
export function unmatchedRoute(router: Router, messages: { notAllowed: (method: string, path: string) => string; notFound: (method: string, path: string) => string }): Middleware {
  return async (ctx) => {
    const match = router.match(ctx.path, ctx.method);
    if (match.path.length > 0) {
      throw methodNotAllowed(messages.notAllowed(ctx.method, ctx.path), [...new Set(match.path.flatMap((layer) => layer.methods))]);
    }
    throw new DomainError('not_found', messages.notFound(ctx.method, ctx.path));
  };
}

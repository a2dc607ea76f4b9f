import type { Middleware } from 'koa';
import { DomainError } from '../../../domain/errors';
import type { Logger } from '../../../infra/logger';

/**
 * The one place where errors become HTTP: typed domain errors map to their status and
 * `{"error","code",...extra}`; anything else is a 500 with the request id and no internals.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof DomainError) {
        ctx.status = err.status;
        ctx.body = { error: err.message, code: err.code, ...err.extra };
        for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
        return;
      }
      logger.error({ err, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = {
        error: 'Internal server error. It is safe to retry with backoff.',
        code: 'internal_error',
        request_id: ctx.state.requestId,
      };
    }
  };
}

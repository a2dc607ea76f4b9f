import type { Middleware } from 'koa';
import type { ErrorCode } from '../../../domain/error-codes';
import { DomainError } from '../../../domain/errors';
import { httpHeadersOf, httpStatusOf } from '../error-status';
import type { Logger } from '../../../infra/logger';
import { asDependencyDown, type Unreachable } from '../dependency-down';
import { loggedPath } from '../logged-path';
import { API_KEY_HEADER, isEstimatorPath } from './estimator-access';

const BEARER_HINT = 'Send the key in the header "Authorization: Bearer svc_live_...".';
const ESTIMATOR_HINT = `Send a key in the "${API_KEY_HEADER}" header, or no key at all for anonymous use.`;

export function errorAnswer(err: DomainError, hint = ''): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  return { status: httpStatusOf(err), headers: httpHeadersOf(err), body: { error: err.message + hint, code: err.code, ...err.data } };
}

/**
 * The one place errors become HTTP: a domain error as its code says, a dependency that did not answer a 503
 * (dependency-down.ts), anything else a 500 with no internals.
 */
export function errorHandler(logger: Logger, unreachable: Unreachable = () => false): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const err = asDependencyDown(thrown, unreachable, logger, ctx);
      if (err instanceof DomainError) {
        // A missing, malformed or unknown key may have been sent the wrong way (a revoked one was not).
        const answer = errorAnswer(err, err.code === 'invalid_api_key' ? ` ${isEstimatorPath(ctx.path) ? ESTIMATOR_HINT : BEARER_HINT}` : '');
        ctx.status = answer.status;
        ctx.body = answer.body;
        for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
        return;
      }
      logger.error({ err, requestId: ctx.state.requestId, method: ctx.method, path: loggedPath(ctx.path) }, 'unhandled error');
      ctx.status = 500;
      ctx.body = {
        error: 'Internal server error. It is safe to retry with backoff.',
        code: 'internal_error' satisfies ErrorCode,
        request_id: ctx.state.requestId,
      };
    }
  };
}

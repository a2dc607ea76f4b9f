import type { Middleware } from 'koa';
import { DomainError } from '../../../domain/errors';
import type { Logger } from '../../../infra/logger';
import { sendErrorPage, sendHtml } from './render';
import { sessionOf } from './session';
import { errorPage } from './templates/errors';
import { httpStatusOf } from '../error-status';
import { asDependencyDown, type Unreachable } from '../dependency-down';
import { loggedPath } from '../logged-path';

/** Dashboard errors are pages, not JSON: a dependency that did not answer a 503 (dependency-down.ts), anything but a typed error a logged 500 with no internals. */
export function htmlErrors(logger: Logger, unreachable: Unreachable = () => false): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const err = asDependencyDown(thrown, unreachable, logger, ctx);
      const session = sessionOf(ctx);
      if (err instanceof DomainError) return sendErrorPage(ctx, err, errorPage(httpStatusOf(err), err.message, session));
      logger.error({ err, requestId: ctx.state.requestId, method: ctx.method, path: loggedPath(ctx.path) }, 'dashboard error');
      sendHtml(ctx, 500, errorPage(500, `Something went wrong on our side. Try again; if it persists, quote request id ${String(ctx.state.requestId)}.`, session));
    }
  };
}

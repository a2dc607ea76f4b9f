import type { Context } from 'koa';
import { DomainError } from '../../domain/errors';
import type { Logger } from '../../infra/logger';
import { loggedPath } from './logged-path';

/** Tells an error of a dependency that did not answer (the store, Temporal), given by src/main. */
export type Unreachable = (err: unknown) => boolean;

/**
 * The error a call answers with: a dependency that did not answer is a 503 `service_unavailable` (what the call wrote may or may
 * not have been kept: safe to repeat, an ingest with its key), logged as a warning; anything else as thrown.
 */
export function asDependencyDown(err: unknown, unreachable: Unreachable, logger: Logger, ctx: Context): unknown {
  if (err instanceof DomainError || !unreachable(err)) return err;
  logger.warn({ err, requestId: ctx.state.requestId, method: ctx.method, path: loggedPath(ctx.path) }, 'a dependency did not answer');
  return new DomainError(
    'service_unavailable',
    'The event store or Temporal did not answer. Retry after Retry-After seconds (an ingest with the same idempotency key).',
    { retry_after: 1 },
    { retryAfterSeconds: 1 },
  );
}

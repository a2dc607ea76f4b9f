import type { Middleware } from 'koa';
import { stringifyExact } from '../../../domain/webhooks/exact-json';

/**
 * Writes a JSON answer as Koa would, but with an event's numbers as they were sent (exact-json.ts): Koa's own
 * JSON.stringify would write their stand-ins.
 */
export function exactJsonResponses(): Middleware {
  return async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (Array.isArray(body) || (typeof body === 'object' && body !== null && Object.getPrototypeOf(body) === Object.prototype)) {
      ctx.body = stringifyExact(body);
    }
  };
}

import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const INCOMING = /^[A-Za-z0-9._:-]{8,128}$/;

/** Every response carries X-Request-Id: the caller's own when it is sane, otherwise a new one. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const id = INCOMING.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '')}`;
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}

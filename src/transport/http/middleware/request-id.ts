import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const INCOMING = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestIdFor(incoming: string | undefined): string {
  return incoming !== undefined && INCOMING.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '')}`;
}

export function requestId(): Middleware {
  return async (ctx, next) => {
    const id = requestIdFor(ctx.get('X-Request-Id'));
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}

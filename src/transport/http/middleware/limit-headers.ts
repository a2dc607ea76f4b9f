import type { Context } from 'koa';
import type { LimitState } from '../../../domain/limits/admission';

/** platform-api.md "Limits": the headers of every response to a metered call. */
export function setLimitHeaders(ctx: Context, state: LimitState): void {
  ctx.set('X-RateLimit-Limit', String(state.burstLimit));
  ctx.set('X-RateLimit-Remaining', String(state.burstRemaining));
  ctx.set('X-RateLimit-Reset', String(Math.ceil(state.burstResetAt.getTime() / 1000)));
  ctx.set('X-Quota-Used', String(state.quotaUsed));
  ctx.set('X-Quota-Limit', Number.isFinite(state.quotaLimit) ? String(state.quotaLimit) : 'unlimited');
}

import type { Context } from 'koa';
import { DomainError } from '../../../domain/errors';
import { LimitAdmitter, LimitPolicy, LimitRejection } from '../../../domain/limits/admission';
import { recordLimitRejection } from '../../../infra/metrics';
import { setLimitHeaders } from './limit-headers';
import { httpStatusOf } from '../error-status';

/**
 * Runs `next` as one metered call: admits it against the burst window and the quota (429
 * otherwise), sets the limit headers, and gives the call back when it ends in a 5xx, which
 * CONTRACT §2 does not count.
 */
export async function metered(ctx: Context, limiter: LimitAdmitter, policy: LimitPolicy, next: () => Promise<void>): Promise<void> {
  let admission;
  try {
    admission = await limiter.admit(policy);
  } catch (err) {
    if (err instanceof LimitRejection) {
      setLimitHeaders(ctx, err.state);
      recordLimitRejection(policy.bucket.startsWith('ip:') ? 'anonymous' : err.error.code === 'quota_exceeded' ? 'quota' : 'burst');
      throw err.error;
    }
    throw err;
  }
  setLimitHeaders(ctx, admission.state);
  try {
    await next();
  } catch (err) {
    const status = err instanceof DomainError ? httpStatusOf(err) : 500;
    if (status >= 500) await admission.release().catch(() => undefined);
    throw err;
  }
  if (ctx.status >= 500) await admission.release().catch(() => undefined);
}

/**
 * Lets `shed` refuse a call before it is metered: CONTRACT §2 does not count a 5xx, so nothing is
 * claimed and given back, and the headers show the limits as they stand. A call its limits refuse
 * anyway, or whose limits this process does not know yet, is left to `metered` (429 comes first).
 */
export function shedUnmetered(ctx: Context, limiter: LimitAdmitter, policy: LimitPolicy, shed: () => void): void {
  const state = limiter.peek(policy);
  if (!state || state.burstRemaining === 0 || state.quotaUsed >= state.quotaLimit) return;
  try {
    shed();
  } catch (err) {
    setLimitHeaders(ctx, state);
    throw err;
  }
}

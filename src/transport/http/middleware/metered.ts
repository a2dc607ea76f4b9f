import type { Context } from 'koa';
import { DomainError } from '../../../domain/errors';
import { Admission, LimitAdmitter, LimitPolicy, LimitRejection, LimitState } from '../../../domain/limits/admission';
import { recordLimitRejection } from '../../../infra/metrics';
import { httpStatusOf } from '../error-status';

/** platform-api.md "Limits": the headers of every response to a metered call. */
export function limitHeaders(state: LimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.burstLimit),
    'X-RateLimit-Remaining': String(state.burstRemaining),
    'X-RateLimit-Reset': String(Math.ceil(state.burstResetAt.getTime() / 1000)),
    'X-Quota-Used': String(state.quotaUsed),
    'X-Quota-Limit': Number.isFinite(state.quotaLimit) ? String(state.quotaLimit) : 'unlimited',
  };
}

/** Runs `next` as one metered call (429 past the limits), with the limit headers; a 5xx is given back (CONTRACT §2). */
export async function metered<T>(ctx: Context, limiter: LimitAdmitter, policy: LimitPolicy, next: () => Promise<T>): Promise<T> {
  let admission: Admission;
  try {
    // Nearly always decided in this process: no promise to wait for.
    const decided = limiter.admitNow(policy);
    admission = decided instanceof Promise ? await decided : decided;
  } catch (err) {
    if (!(err instanceof LimitRejection)) throw err;
    ctx.set(limitHeaders(err.state));
    recordLimitRejection(policy.bucket.startsWith('ip:') ? 'anonymous' : err.error.code === 'quota_exceeded' ? 'quota' : 'burst');
    throw err.error;
  }
  ctx.set(limitHeaders(admission.state));
  try {
    const result = await next();
    if (ctx.status >= 500) await admission.release().catch(() => undefined);
    return result;
  } catch (err) {
    const status = err instanceof DomainError ? httpStatusOf(err) : 500;
    if (status >= 500) await admission.release().catch(() => undefined);
    throw err;
  }
}

/** The account's limits when a call may be decided before it is metered: known here, and neither used up (else `metered` answers it, 429 first). */
export function unmeteredState(limiter: Pick<LimitAdmitter, 'peek'>, policy: LimitPolicy): LimitState | undefined {
  const state = limiter.peek(policy);
  return state && state.burstRemaining > 0 && state.quotaUsed < state.quotaLimit ? state : undefined;
}

/** Asks `admit` before the call is metered, so a refusal (a 5xx) is not counted; `undefined` when unmeteredState has no state. */
export function admitUnmetered<T>(ctx: Context, limiter: LimitAdmitter, policy: LimitPolicy, admit: () => T): T | undefined {
  const state = unmeteredState(limiter, policy);
  if (!state) return undefined;
  try {
    return admit();
  } catch (err) {
    ctx.set(limitHeaders(state));
    throw err;
  }
}

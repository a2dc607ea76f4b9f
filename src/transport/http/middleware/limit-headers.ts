import type { LimitState } from '../../../domain/limits/admission';

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

import type { Middleware } from 'koa';
import type { LimitAdmitter } from '../../../domain/limits/admission';
import { accountPolicy, anonymousPolicy } from '../../../domain/limits/policies';
import type { KeyAuthenticator } from '../../../services/key-authenticator';
import { clientIp } from '../client-ip';
import { metered } from './metered';

export const API_KEY_HEADER = 'x-api-key';
/** The estimator's one path (no version segment); a trailing slash routes to it too. */
export const COST_ESTIMATOR_PATH = '/api/cost-estimator';

/** Compared lower-cased so that no spelling of the path can reach the routes unmetered. */
export function isEstimatorPath(path: string): boolean {
  return path.toLowerCase().replace(/\/$/, '') === COST_ESTIMATOR_PATH;
}

/** CONTRACT §5, keyed (any product) or anonymous. A guard: a bad key is a 401 whatever the body. */
export function estimatorAccess(authenticator: KeyAuthenticator, limiter: LimitAdmitter): Middleware {
  return async (ctx, next) => {
    if (!isEstimatorPath(ctx.path)) return next();
    const header = ctx.headers[API_KEY_HEADER];
    if (header === undefined) return metered(ctx, limiter, anonymousPolicy(clientIp(ctx)), next);
    // A header given but empty or repeated is a malformed key: 401, never a silent fall-back to anonymous.
    const principal = await authenticator.authenticate(typeof header === 'string' ? header.trim() : undefined);
    return metered(ctx, limiter, accountPolicy(principal.account._id, principal.account.tier), next);
  };
}

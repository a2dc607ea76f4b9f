import type { Context } from 'koa';
import { DomainError, isDomainError } from '../../../domain/errors';
import { accountPolicy } from '../../../domain/limits/policies';
import type { ActiveSession } from '../../../services/dashboard-auth-service';
import { metered } from '../middleware/metered';
import type { DashboardDeps } from './deps';

/** Meters a dashboard write like the API call it mirrors, so the dashboard is no way around the limits. */
export async function meteredAction<T>(
  ctx: Context,
  session: ActiveSession,
  deps: Pick<DashboardDeps, 'limiter'>,
  action: () => Promise<T>,
): Promise<T> {
  try {
    return await metered(ctx, deps.limiter, accountPolicy(session.account._id, session.account.tier), action);
  } catch (err) {
    if (!isDomainError(err, 'rate_limit_exceeded', 'quota_exceeded')) throw err;
    // The same refusal, worded for a dashboard page: the account's API limits are used up; the action did nothing.
    throw new DomainError(
      err.code,
      err.code === 'rate_limit_exceeded'
        ? `Nothing was changed: this account has used its calls for this minute (dashboard changes count like API calls). Try again in ${String(err.data.retry_after)} s.`
        : 'Nothing was changed: this account has used its monthly quota of calls (dashboard changes count like API calls). Upgrade the plan or wait for the next billing period.',
      {},
      { retryAfterSeconds: err.retryAfterSeconds },
    );
  }
}

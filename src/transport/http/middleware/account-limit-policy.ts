import type { LimitPolicy } from '../../../domain/limits/rate-limiter';
import { TIERS } from '../../../domain/limits/tiers';
import type { AccountDoc } from '../../../persistence/accounts';

/** The burst window and monthly quota of an account's tier: one bucket per account, shared by its API calls and its dashboard writes. */
export function accountLimitPolicy(account: Pick<AccountDoc, '_id' | 'tier'>): LimitPolicy {
  const tier = TIERS[account.tier];
  return { bucket: `acct:${account._id}`, burstLimit: tier.burstPerMinute, quotaLimit: tier.monthlyQuota };
}

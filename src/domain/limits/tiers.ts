/** platform-api.md "Limits": monthly quota and per-minute burst of each tier. */
export const TIERS = {
  free: { name: 'Free', monthlyQuota: 500, burstPerMinute: 10 },
  developer: { name: 'Developer', monthlyQuota: 10_000, burstPerMinute: 60 },
  starter: { name: 'Starter', monthlyQuota: 50_000, burstPerMinute: 120 },
  team: { name: 'Team', monthlyQuota: 200_000, burstPerMinute: 300 },
  business: { name: 'Business', monthlyQuota: 1_000_000, burstPerMinute: 600 },
  enterprise: { name: 'Enterprise', monthlyQuota: Number.POSITIVE_INFINITY, burstPerMinute: 3_000 },
} as const;

export type Tier = keyof typeof TIERS;
export const TIER_NAMES = Object.keys(TIERS) as Tier[];

export function isTier(value: string): value is Tier {
  return Object.prototype.hasOwnProperty.call(TIERS, value);
}

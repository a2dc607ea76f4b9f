import ipaddr from 'ipaddr.js';
import type { LimitPolicy } from './admission';
import { Tier, TIERS } from './tiers';

export const ANONYMOUS_BURST_PER_MINUTE = 30;

/** Key-scoped calls and keyed estimator calls: the account's tier, in the account's one bucket. */
export function accountPolicy(accountId: string, tierName: Tier): LimitPolicy {
  const tier = TIERS[tierName];
  // Without a quota (Enterprise) the calls are still counted: X-Quota-Used and the dashboard show them.
  return { bucket: accountBucket(accountId), burstLimit: tier.burstPerMinute, quotaLimit: tier.monthlyQuota, countUsage: true };
}

/** The bucket of an account's calls (the dashboard reads its usage). */
export function accountBucket(accountId: string): string {
  return `acct:${accountId}`;
}

/** Anonymous estimator calls (CONTRACT §5): 30 a minute per client network, no quota, nothing else counted. */
export function anonymousPolicy(clientIp: string): LimitPolicy {
  return { bucket: `ip:${clientNetwork(clientIp)}`, burstLimit: ANONYMOUS_BURST_PER_MINUTE, quotaLimit: Number.POSITIVE_INFINITY, countUsage: false };
}

/** IPv4 address, or IPv6 /64 (the smallest prefix a subscriber gets: its own addresses give no new budget). */
export function clientNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

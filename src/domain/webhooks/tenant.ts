import { isDotSegment } from './path-segment';

/**
 * Tenants: the sender's own customers, named by an id the sender chooses (its customer id). An endpoint and an event each
 * belong to one tenant or to none (the account itself).
 */

/** Ids as Svix's application uids and Stripe's ids are made: ASCII letters, digits and `. _ : -`, so they fit a URL path unescaped. */
export const MAX_TENANT_ID_LENGTH = 128;
export const TENANT_ID_REGEX = /^[A-Za-z0-9._:-]{1,128}$/;
export const TENANT_ID_RULE = `must be 1 to ${MAX_TENANT_ID_LENGTH} characters of A-Z a-z 0-9 . _ : -, and not . or ..`;

export function isTenantId(value: unknown): value is string {
  return typeof value === 'string' && TENANT_ID_REGEX.test(value) && !isDotSegment(value);
}

/** What one tenant and one account may hold (MAX_ENDPOINTS_PER_TENANT, MAX_TENANTS_PER_ACCOUNT). */
export interface TenantCaps {
  endpointsPerTenant: number;
  tenantsPerAccount: number;
}

export const DEFAULT_TENANT_CAPS: TenantCaps = { endpointsPerTenant: 20, tenantsPerAccount: 1_000 };

/**
 * The matching rule: an event reaches an endpoint only if both belong to the same tenant, or both to none. So one
 * tenant's events never reach another tenant's endpoints, an event without a tenant reaches no tenant's endpoint, and
 * there is no broadcast to every tenant.
 */
export function sameTenant(endpointTenant: string | null | undefined, eventTenant: string | null | undefined): boolean {
  return (endpointTenant ?? null) === (eventTenant ?? null);
}

/**
 * Whose records a call may see and change: an account id (all of the account's, as its key sees them), or one tenant of an
 * account (that tenant's only, as a portal session sees them). Persistence puts it in the filter of every read and write.
 */
export type RecordOwner = string | { accountId: string; tenantId?: string };

/** The account and, for a tenant's caller, the tenant a RecordOwner names (undefined: every record of the account). */
export function ownerOf(owner: RecordOwner): { accountId: string; tenantId?: string } {
  return typeof owner === 'string' ? { accountId: owner } : owner;
}

import { isPlatformEventType } from './event-pattern';

/**
 * 1 to 255 printable ASCII characters without space (CONTRACT §4): NUL or lone surrogates are not stored faithfully everywhere,
 * and a header loses end spaces and has no encoding, so a wider key could match in the body field and not the header.
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
export const IDEMPOTENCY_KEY_REGEX = /^[\x21-\x7e]{1,255}$/;
/** How a refused key is worded, for the body field and the header alike. */
export const IDEMPOTENCY_KEY_RULE = `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces (0x21 to 0x7E)`;

export function isIdempotencyKey(key: string): boolean {
  return IDEMPOTENCY_KEY_REGEX.test(key);
}

/**
 * Who chose an event's key: the account at ingest, or the platform for its operational events. Each has its own keys, so an
 * account's key never answers for (or suppresses) an operational event, whatever it spells. Only the platform emits `platform.` types.
 */
export type KeyIssuer = 'account' | 'platform';

export const keyIssuerOf = (eventType: string): KeyIssuer => (isPlatformEventType(eventType) ? 'platform' : 'account');

/**
 * Whose keys an event's key is one of: the platform's for the account, the account's own, or one tenant's. Each tenant has
 * its own, as Stripe keeps one set per connected account: a tenant's portal session, which sends test events with keys of
 * its choosing, can neither read another tenant's (or the account's) events through a key nor take a key first so that
 * the sender's event for another tenant is answered as a repeat and never stored.
 */
export interface KeyScope {
  issuer: KeyIssuer;
  accountId: string;
  tenantId?: string;
}

export const keyScopeOf = (accountId: string, event: { type: string; tenant_id?: string }): KeyScope => ({
  issuer: keyIssuerOf(event.type),
  accountId,
  ...(event.tenant_id !== undefined && { tenantId: event.tenant_id }),
});

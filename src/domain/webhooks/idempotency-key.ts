import { isPlatformEventType } from './event-pattern';

/**
 * 1 to 255 characters (CONTRACT §4; UTF-16 units, as a JSON string's length), spaces and any script included, as Stripe's
 * keys: only control characters (a NUL, a line break) and unpaired surrogates are refused, which are not stored or shown
 * faithfully everywhere (a log line, a header, the dashboard).
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
export const IDEMPOTENCY_KEY_REGEX = /^[^\x00-\x1f\x7f-\x9f]{1,255}$/;
/** How a refused key is worded, for the body field and the header alike. */
export const IDEMPOTENCY_KEY_RULE = `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters, none a control character (U+0000 to U+001F, U+007F to U+009F) or an unpaired surrogate`;

/** A high surrogate not followed by a low one, or a low one not after a high one. */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What IDEMPOTENCY_KEY_REGEX cannot say (and a JSON Schema pattern neither): no unpaired surrogate. */
export const isWellFormedKey = (key: string): boolean => !UNPAIRED_SURROGATE.test(key);

export function isIdempotencyKey(key: string): boolean {
  return IDEMPOTENCY_KEY_REGEX.test(key) && isWellFormedKey(key);
}

/**
 * The key an `Idempotency-Key` header carries: its bytes read as UTF-8 (Node hands a header over as Latin-1), so that a key
 * outside ASCII is the same in the header as in the body field; undefined when they are not UTF-8.
 */
export function headerIdempotencyKey(latin1: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(latin1, 'latin1'));
  } catch {
    return undefined;
  }
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

/**
 * Delivery signatures (platform-api.md "Signature of deliveries"):
 *   X-Webhook-Signature: sha256=<lowercase hex HMAC-SHA256 of the exact raw body bytes>
 *
 * Key decision: the HMAC key is the endpoint's signing secret string AS GIVEN, including the
 * `whsec_` prefix, encoded as UTF-8 bytes. The spec's reference receivers pass <SIGNING_SECRET>
 * straight to their HMAC function (e.g. `createHmac('sha256', secret)`), which does exactly that;
 * stripping the prefix or base64-decoding the rest (as Svix does) would make their checks fail.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Webhook-Signature';
export const SIGNATURE_PREFIX = 'sha256=';
export const SIGNING_SECRET_PREFIX = 'whsec_';
/** CONTRACT §3: at least 32 random bytes. */
export const SIGNING_SECRET_RANDOM_BYTES = 32;

const SIGNATURE_HEX_REGEX = /^[0-9a-f]{64}$/;

export type RawBody = string | Uint8Array;

/** `sha256=<hex>` for `rawBody` keyed with `secret` (UTF-8 bytes of the whole string). */
export function signPayload(secret: string, rawBody: RawBody): string {
  if (typeof secret !== 'string' || secret.length === 0) {
    // An empty key would still "sign"; refusing it keeps a missing secret from going unnoticed.
    throw new TypeError('signing secret must be a non-empty string');
  }
  return `${SIGNATURE_PREFIX}${hmac(secret, rawBody).toString('hex')}`;
}

/**
 * Constant-time check of a received `X-Webhook-Signature` value. Returns false (never throws) for
 * anything that is not exactly `sha256=` + 64 lowercase hex digits of the right HMAC.
 */
export function verifySignature(secret: string, rawBody: RawBody, header: unknown): boolean {
  try {
    if (typeof secret !== 'string' || secret.length === 0) return false;
    if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) return false;
    if (typeof header !== 'string' || !header.startsWith(SIGNATURE_PREFIX)) return false;
    const hex = header.slice(SIGNATURE_PREFIX.length);
    // The regex fixes the length, so timingSafeEqual never sees buffers of different sizes,
    // and it stops Buffer.from(hex) from silently dropping non-hex characters.
    if (!SIGNATURE_HEX_REGEX.test(hex)) return false;
    return timingSafeEqual(Buffer.from(hex, 'hex'), hmac(secret, rawBody));
  } catch {
    return false;
  }
}

/** `whsec_` + base64url of 32 random bytes (43 characters, no padding). */
export function generateSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(SIGNING_SECRET_RANDOM_BYTES).toString('base64url')}`;
}

function hmac(secret: string, rawBody: RawBody): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest();
}

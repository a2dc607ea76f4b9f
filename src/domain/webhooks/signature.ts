/**
 * Delivery signatures. Two schemes on every attempt:
 *
 * 1. The spec's (platform-api.md "Signature of deliveries"), unchanged:
 *   X-Webhook-Signature: sha256=<lowercase hex HMAC-SHA256 of the exact raw body bytes>
 *
 * The HMAC key is the secret string AS GIVEN, `whsec_` prefix included, as UTF-8: the spec's
 * reference receivers pass it straight to their HMAC function, so decoding it would fail their checks.
 *
 * 2. Standard Webhooks (https://www.standardwebhooks.com), so stock libraries verify deliveries:
 *   webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">
 * keyed with the base64-decoded part of the secret after `whsec_`; one space-separated entry per
 * secret alive (rotation grace). Secrets are standard base64 of 32 random bytes.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Webhook-Signature';
export const SIGNATURE_PREFIX = 'sha256=';
export const SIGNING_SECRET_PREFIX = 'whsec_';
/** CONTRACT §3: at least 32 random bytes. */
export const SIGNING_SECRET_RANDOM_BYTES = 32;

export type RawBody = string | Uint8Array;

/** `sha256=<hex>` for `rawBody` keyed with `secret` (UTF-8 bytes of the whole string). */
export function signPayload(secret: string, rawBody: RawBody): string {
  if (typeof secret !== 'string' || secret.length === 0) {
    // An empty key would still "sign"; refusing it keeps a missing secret from going unnoticed.
    throw new TypeError('signing secret must be a non-empty string');
  }
  return `${SIGNATURE_PREFIX}${hmac(secret, rawBody).toString('hex')}`;
}

/** `whsec_` + standard base64 of 32 random bytes (44 characters, padded), as Standard Webhooks libraries decode it. */
export function generateSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(SIGNING_SECRET_RANDOM_BYTES).toString('base64')}`;
}

export const STANDARD_SIGNATURE_VERSION = 'v1';
// Standard base64, padding optional: Node's decoder would skip any other character silently.
const SECRET_KEY_REGEX = /^[A-Za-z0-9+/]+={0,2}$/;

/** The HMAC key of the standard scheme: the bytes encoded (standard base64) after `whsec_`. */
export function standardSigningKey(secret: string): Buffer {
  const encoded = secret.startsWith(SIGNING_SECRET_PREFIX) ? secret.slice(SIGNING_SECRET_PREFIX.length) : secret;
  if (!SECRET_KEY_REGEX.test(encoded)) throw new TypeError('signing secret is not whsec_ + base64');
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new TypeError('signing secret decodes to no bytes');
  return key;
}

/**
 * `webhook-signature` value: `v1,<base64>` per secret, newest first, space-separated.
 * `id` and `timestamp` are the `webhook-id` and `webhook-timestamp` sent with the same bytes.
 */
export function signStandard(secrets: readonly string[], id: string, timestamp: number, rawBody: RawBody): string {
  if (secrets.length === 0) throw new TypeError('at least one signing secret is needed');
  return secrets.map((secret) => `${STANDARD_SIGNATURE_VERSION},${standardHmac(standardSigningKey(secret), id, timestamp, rawBody).toString('base64')}`).join(' ');
}

function standardHmac(key: Buffer, id: string, timestamp: number, rawBody: RawBody): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(rawBody).digest();
}

function hmac(secret: string, rawBody: RawBody): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest();
}

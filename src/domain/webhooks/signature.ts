/**
 * Two signatures per attempt: the spec's `X-Webhook-Signature` keyed with the whole secret (spec receivers pass it straight to
 * HMAC); Standard Webhooks' `webhook-signature` (stock libraries verify it) keyed with the base64 after `whsec_`, one per live secret.
 */
import { createHmac, randomBytes } from 'node:crypto';

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
  return `${SIGNATURE_PREFIX}${createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest('hex')}`;
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

/** `v1,<base64>` per secret, newest first, over the `webhook-id`, `webhook-timestamp` and body sent. */
export function signStandard(secrets: readonly string[], id: string, timestamp: number, rawBody: RawBody): string {
  if (secrets.length === 0) throw new TypeError('at least one signing secret is needed');
  const mac = (secret: string) => createHmac('sha256', standardSigningKey(secret)).update(`${id}.${timestamp}.`, 'utf8').update(rawBody).digest('base64');
  return secrets.map((secret) => `${STANDARD_SIGNATURE_VERSION},${mac(secret)}`).join(' ');
}

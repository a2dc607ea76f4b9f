/** Synchronous verification on node:crypto (Node only). Same checks and errors as `verify`. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { bytesOf, checkBody, HeadersLike, noMatch, RawBody, signatureChecks, VerifiedWebhook, VerifyOptions } from './core';

export * from './core';

export function verifySync(rawBody: RawBody, headers: HeadersLike, options: VerifyOptions): VerifiedWebhook {
  const body = bytesOf(rawBody);
  const { scheme, id, checks } = signatureChecks(headers, body, options);
  let matched = false;
  for (const check of checks) {
    const expected = createHmac('sha256', check.key).update(check.message).digest();
    for (const signature of check.signatures) if (signature.length === expected.length && timingSafeEqual(signature, expected)) matched = true;
  }
  if (!matched) noMatch();
  return checkBody(headers, body, scheme, id, options);
}

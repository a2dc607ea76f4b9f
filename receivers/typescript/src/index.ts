/**
 * Verifies platform webhook deliveries with WebCrypto: Node 18+, Deno, Bun, Cloudflare Workers,
 * Vercel/Next.js edge. On Node, `./node` offers a synchronous verifier on node:crypto.
 */
import { bytesOf, checkBody, HeadersLike, noMatch, RawBody, signatureChecks, VerifiedWebhook, VerifyOptions } from './core';

export * from './core';

/**
 * Verifies one delivery from its raw body bytes and headers; throws WebhookVerificationError
 * (its `code` says which check failed) or resolves to the verified id and event.
 */
export async function verify(rawBody: RawBody, headers: HeadersLike, options: VerifyOptions): Promise<VerifiedWebhook> {
  const body = bytesOf(rawBody);
  const { scheme, id, checks } = signatureChecks(headers, body, options);
  let matched = false;
  for (const check of checks) {
    const key = await crypto.subtle.importKey('raw', check.key as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    // subtle.verify compares in constant time; every candidate is checked so timing does not tell which matched.
    for (const signature of check.signatures) if (await crypto.subtle.verify('HMAC', key, signature as Uint8Array<ArrayBuffer>, check.message as Uint8Array<ArrayBuffer>)) matched = true;
  }
  if (!matched) noMatch();
  return checkBody(headers, body, scheme, id, options);
}

/** For `Request`-based handlers (Next.js route handlers, Cloudflare Workers, Deno, Bun): reads the raw body once. */
export async function verifyRequest(request: Request, options: VerifyOptions): Promise<VerifiedWebhook> {
  return verify(await request.arrayBuffer(), request.headers, options);
}

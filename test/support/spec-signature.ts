import { type RawBody, signPayload } from '../../src/domain/webhooks/signature';

/** Whether `header` is the X-Webhook-Signature of `rawBody` under `secret`: `sha256=` + its lowercase hex HMAC, exactly. */
export function verifySignature(secret: string, rawBody: RawBody, header: unknown): boolean {
  return typeof header === 'string' && header === signPayload(secret, rawBody);
}

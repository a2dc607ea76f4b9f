/** CONTRACT §4: an idempotency key (body field or `Idempotency-Key` header) is 1 to 255 characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export function isIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= MAX_IDEMPOTENCY_KEY_LENGTH;
}

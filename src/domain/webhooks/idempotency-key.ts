/**
 * An idempotency key (body field or `Idempotency-Key` header): 1 to 255 characters (CONTRACT §4)
 * of printable ASCII without the space, 0x21 to 0x7E: a NUL or lone surrogate is not stored
 * faithfully everywhere, a space is lost at a header's ends, and a header carries no encoding, so a
 * non-ASCII key could match in one channel and not the other.
 */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
export const IDEMPOTENCY_KEY_REGEX = /^[\x21-\x7e]{1,255}$/;
/** How a refused key is worded, for the body field and the header alike. */
export const IDEMPOTENCY_KEY_RULE = `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces (0x21 to 0x7E)`;

export function isIdempotencyKey(key: string): boolean {
  return IDEMPOTENCY_KEY_REGEX.test(key);
}

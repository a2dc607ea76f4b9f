/** CONTRACT §4: a repeat of an idempotency key by the same account within 24 h gets the original answer. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

/**
 * CONTRACT §4: an event id is a positive integer, and no larger than a JSON number carries
 * exactly (2^53 - 1). The one home of that rule: the path parameter, the store and the signed
 * body all ask here. Imported by workflow code: pure.
 */
export const EVENT_ID_PATTERN = '^[1-9][0-9]{0,15}$';
const EVENT_ID_REGEX = new RegExp(EVENT_ID_PATTERN);

export function isEventId(id: unknown): id is number {
  return Number.isSafeInteger(id) && (id as number) >= 1;
}

/** The id a path segment names, or null when it is not one (leading zeros, signs and exponents are refused). */
export function parseEventId(raw: string): number | null {
  if (!EVENT_ID_REGEX.test(raw)) return null;
  const id = Number(raw);
  return isEventId(id) ? id : null;
}

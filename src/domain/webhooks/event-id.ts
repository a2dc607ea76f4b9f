/** A positive integer a JSON number carries exactly (CONTRACT §4); this rule's one home. */
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

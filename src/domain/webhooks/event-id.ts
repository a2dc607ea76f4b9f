/**
 * A path's event id: any positive integer in decimal, without leading zeros (CONTRACT §4: anything else is a 400). Only
 * those a JSON number carries exactly, up to 2^53 − 1, are given to events. This rule's one home.
 */
export const EVENT_ID_PATTERN = '^[1-9][0-9]*$';
const EVENT_ID_REGEX = new RegExp(EVENT_ID_PATTERN);

export function isEventId(id: unknown): id is number {
  return Number.isSafeInteger(id) && (id as number) >= 1;
}

/**
 * What a path segment names: an event id; `beyond_ids` for a positive integer past 2^53 − 1, which no event has (so
 * unknown, not malformed); null when it is no positive integer (zero, leading zeros, signs, exponents).
 */
export function parseEventId(raw: string): number | 'beyond_ids' | null {
  if (!EVENT_ID_REGEX.test(raw)) return null;
  const id = Number(raw);
  return isEventId(id) ? id : 'beyond_ids';
}

/** Event types and subscription patterns (CONTRACT §3–4): `*`, `<prefix>.*` and `<type>`. No imports: usable by workflow code. */

export const EVENT_TYPE_MAX_LENGTH = 256;
export const EVENT_TYPE_REGEX = /^[A-Za-z0-9_.:-]{1,256}$/;

export const WILDCARD_PATTERN = '*';
/** Types the platform emits (operational-events.ts): not ingestible, and `*` does not match them (name the prefix instead). */
export const PLATFORM_EVENT_PREFIX = 'platform.';
export const PREFIX_WILDCARD_SUFFIX = '.*';
/** CONTRACT §3: `events` defaults to ["*"] and holds at most 100 patterns. */
export const DEFAULT_EVENT_PATTERNS: readonly string[] = Object.freeze([WILDCARD_PATTERN]);
export const MAX_EVENT_PATTERNS = 100;

export type ParsedEventPattern =
  | { kind: 'all' }
  | { kind: 'prefix'; prefix: string }
  | { kind: 'exact'; type: string };

export type EventPatternValidation =
  | { ok: true; pattern: ParsedEventPattern }
  | { ok: false; message: string };

export function isPlatformEventType(type: string): boolean {
  return type.startsWith(PLATFORM_EVENT_PREFIX);
}

export function isValidEventType(type: unknown): type is string {
  return typeof type === 'string' && EVENT_TYPE_REGEX.test(type);
}

export function validateEventPattern(pattern: unknown): EventPatternValidation {
  if (typeof pattern !== 'string') return { ok: false, message: 'Event pattern must be a string.' };
  if (pattern.length === 0) return { ok: false, message: 'Event pattern must not be empty.' };
  if (pattern === WILDCARD_PATTERN) return { ok: true, pattern: { kind: 'all' } };

  const invalid = (why: string): EventPatternValidation => ({ ok: false, message: `Invalid event pattern "${truncate(pattern)}": ${why}` });

  if (pattern.endsWith(PREFIX_WILDCARD_SUFFIX)) {
    const prefix = pattern.slice(0, -PREFIX_WILDCARD_SUFFIX.length);
    // `user..*` would mean "starts with `user..`": almost certainly a typo, so refused.
    if (!isValidEventType(prefix) || prefix.endsWith('.')) return invalid('the prefix before ".*" must be a valid event type not ending with ".".');
    return { ok: true, pattern: { kind: 'prefix', prefix } };
  }

  if (pattern.includes('*')) return invalid('"*" is allowed only alone or as a final ".*".');
  if (!isValidEventType(pattern)) {
    return invalid(`an event type is 1 to ${EVENT_TYPE_MAX_LENGTH} characters of A-Z a-z 0-9 _ . : -.`);
  }
  // A trailing dot is nearly always a mistyped `<prefix>.*` (such types stay reachable through `*`).
  if (pattern.endsWith('.')) return invalid(`a pattern must not end with "."; use "${truncate(pattern)}*" to match every type under that prefix.`);
  return { ok: true, pattern: { kind: 'exact', type: pattern } };
}

export function parseEventPattern(pattern: unknown): ParsedEventPattern | null {
  const result = validateEventPattern(pattern);
  return result.ok ? result.pattern : null;
}

export interface EventPatternListIssue {
  /** Index into the array, or null when the value as a whole is wrong. */
  index: number | null;
  message: string;
}

/** An `events` value as given: the caller defaults an omitted one, so `undefined` and `[]` (refused) differ. */
export function validateEventPatterns(value: unknown): { ok: true; patterns: string[] } | { ok: false; issues: EventPatternListIssue[] } {
  if (!Array.isArray(value)) return { ok: false, issues: [{ index: null, message: 'events must be an array of strings.' }] };
  if (value.length === 0) return { ok: false, issues: [{ index: null, message: 'events must contain at least one pattern.' }] };
  if (value.length > MAX_EVENT_PATTERNS) {
    return { ok: false, issues: [{ index: null, message: `events must contain at most ${MAX_EVENT_PATTERNS} patterns.` }] };
  }
  const issues: EventPatternListIssue[] = [];
  value.forEach((pattern, index) => {
    const result = validateEventPattern(pattern);
    if (!result.ok) issues.push({ index, message: result.message });
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, patterns: [...(value as string[])] };
}

/** Never throws: invalid patterns and types match nothing, so a corrupt stored pattern cannot match all. */
export function matchesEventType(pattern: string, type: string): boolean {
  if (!isValidEventType(type)) return false;
  const parsed = parseEventPattern(pattern);
  if (parsed === null) return false;
  switch (parsed.kind) {
    case 'all':
      return !isPlatformEventType(type);
    case 'exact':
      return parsed.type === type;
    case 'prefix':
      // CONTRACT §3: every type that starts with `<prefix>.` (`user.` too), so neither `user` nor `username.created`.
      return type.startsWith(`${parsed.prefix}.`);
  }
}

export function matchesAny(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => matchesEventType(pattern, type));
}

/** Keeps error messages bounded when a caller sends a huge pattern. */
function truncate(value: string, max = 64): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

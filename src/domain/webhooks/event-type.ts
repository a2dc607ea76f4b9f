import { EVENT_TYPE_MAX_LENGTH, isPlatformEventType, isValidEventType, PLATFORM_EVENT_PREFIX } from './event-pattern';

/** The event-type catalog's caps (docs/event-types.md): what one account may register, so its cost is bounded. */
export const MAX_EVENT_TYPES_PER_ACCOUNT = 200;
/** `schema` and `example`, each serialized: ingest keeps every schema of an account in memory, so they stay small. */
export const MAX_EVENT_TYPE_SCHEMA_BYTES = 16 * 1024;
export const MAX_EVENT_TYPE_EXAMPLE_BYTES = 16 * 1024;
export const MAX_EVENT_TYPE_DESCRIPTION_LENGTH = 1024;

export type EventTypeNameCheck = { ok: true } | { ok: false; reserved: boolean; message: string };

/** A catalog entry names one exact type, as ingest takes it: no pattern, and never one of the platform's own. */
export function checkEventTypeName(name: string): EventTypeNameCheck {
  if (!isValidEventType(name)) {
    return { ok: false, reserved: false, message: `must be 1 to ${EVENT_TYPE_MAX_LENGTH} characters of A-Z a-z 0-9 _ . : - (an exact type, no pattern)` };
  }
  if (isPlatformEventType(name)) return { ok: false, reserved: true, message: `types starting "${PLATFORM_EVENT_PREFIX}" are the platform's own` };
  return { ok: true };
}

/** Bytes of `value` serialized as JSON, as the caps count them. */
export function serializedBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

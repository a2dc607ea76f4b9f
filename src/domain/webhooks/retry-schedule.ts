/**
 * The delivery retry schedule (platform-api.md "Retry schedule", CONTRACT §4).
 *
 * Imported by Temporal workflow code, so it must be deterministic: no imports at all (in
 * particular nothing from Node), no clocks, no randomness. Delays count from the END of the
 * previous attempt (CONTRACT §4); this module only knows the delays, the workflow applies them.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * THE schedule: RETRY_DELAYS_MS[n - 1] is the wait after failed attempt n, for n = 1..7.
 * Attempt 8 has no entry because it is the last one.
 */
export const RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  1 * SECOND, // after attempt 1
  5 * SECOND, // after attempt 2
  30 * SECOND, // after attempt 3
  5 * MINUTE, // after attempt 4
  30 * MINUTE, // after attempt 5
  2 * HOUR, // after attempt 6
  24 * HOUR, // after attempt 7
]);

/** Derived from the schedule so the two can never disagree: 8. */
export const MAX_ATTEMPTS: number = RETRY_DELAYS_MS.length + 1;

/**
 * Milliseconds to wait after failed attempt `attempt` (1-based) before the next one, or null when
 * `attempt` was the last allowed (the delivery is then permanently failed).
 * Throws RangeError for a non-integer or < 1 attempt: that is a caller bug, not a schedule state.
 */
export function delayAfterAttempt(attempt: number): number | null {
  assertAttempt(attempt);
  if (attempt >= MAX_ATTEMPTS) return null;
  return RETRY_DELAYS_MS[attempt - 1] as number;
}

function assertAttempt(attempt: number): void {
  if (!Number.isSafeInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be a positive integer, got ${String(attempt)}`);
  }
}

/** A delay as people read it in the Temporal UI: `1 s`, `30 s`, `5 min`, `2 h`, `24 h`. */
export function readableDelay(ms: number): string {
  if (ms % HOUR === 0) return `${ms / HOUR} h`;
  if (ms % MINUTE === 0) return `${ms / MINUTE} min`;
  return `${ms / SECOND} s`;
}

/** Delays count from the END of the previous attempt. Workflow code: no imports, clocks or randomness. */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** RETRY_DELAYS_MS[n - 1] is the wait after failed attempt n, n = 1..7 (attempt 8 is the last). */
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

/** The wait after failed attempt `attempt` (1-based), or null after the last; RangeError for a non-integer or < 1 (a caller bug). */
export function delayAfterAttempt(attempt: number): number | null {
  if (!Number.isSafeInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be a positive integer, got ${String(attempt)}`);
  }
  if (attempt >= MAX_ATTEMPTS) return null;
  return RETRY_DELAYS_MS[attempt - 1] as number;
}

/** A delay as people read it in the Temporal UI: `1 s`, `30 s`, `5 min`, `2 h`, `24 h`. */
export function readableDelay(ms: number): string {
  if (ms % HOUR === 0) return `${ms / HOUR} h`;
  if (ms % MINUTE === 0) return `${ms / MINUTE} min`;
  return `${ms / SECOND} s`;
}

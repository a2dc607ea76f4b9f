/** What follows an attempt, decided once for activity and workflow alike. Imported by workflow code: pure. */
import { delayAfterAttempt } from './retry-schedule';

/** A status; a broker's confirmation; `timeout` (lookup or response); or `network` (unresolved, refused or unconfirmed, no connection, unsignable). */
export type AttemptResult = { kind: 'status'; statusCode: number } | { kind: 'confirmed' } | { kind: 'timeout' } | { kind: 'network' };

export type AttemptDecision =
  /** The delivery ended with this attempt. */
  | { status: 'succeeded' | 'failed'; nextDelayMs: null }
  /** Another attempt follows, this many milliseconds after the end of this one. */
  | { status: 'retrying'; nextDelayMs: number };

/** A 2xx answer (CONTRACT §4; a 3xx is not followed), or a broker's confirmation, and nothing else, is a delivery. */
export function isDelivered(result: AttemptResult): boolean {
  return result.kind === 'confirmed' || (result.kind === 'status' && result.statusCode >= 200 && result.statusCode < 300);
}

/** Every failure is retried alike, on the schedule: the kind only tells people (and metrics) why. */
export function decideAfterAttempt(attempt: number, result: AttemptResult): AttemptDecision {
  if (isDelivered(result)) return { status: 'succeeded', nextDelayMs: null };
  const delay = delayAfterAttempt(attempt);
  return delay === null ? { status: 'failed', nextDelayMs: null } : { status: 'retrying', nextDelayMs: delay };
}

/** A recorded attempt as a result: its status, a broker's confirmation (no status, succeeded), or a failure without a status (which kind does not change the decision). */
export function recordedResult(recorded: { status_code: number | null; succeeded?: boolean }): AttemptResult {
  if (recorded.status_code !== null) return { kind: 'status', statusCode: recorded.status_code };
  return recorded.succeeded === true ? { kind: 'confirmed' } : { kind: 'network' };
}

/** What the workflow does after an attempt: end the run with this status, or sleep and make the next attempt. */
export type NextStep<S extends string> = { end: Exclude<S, 'retrying'> | 'failed' } | { retryAfterMs: number };

/** The workflow's step: a `retrying` with no delay (no attempt left) ends the run as failed, never retrying. */
export function nextStep<S extends string>(outcome: { status: S; nextDelayMs: number | null }): NextStep<S> {
  if (outcome.status !== 'retrying') return { end: outcome.status as Exclude<S, 'retrying'> };
  return outcome.nextDelayMs === null ? { end: 'failed' } : { retryAfterMs: outcome.nextDelayMs };
}

/**
 * "Is there another attempt?", decided once (the activity that records an attempt and the
 * workflow that sleeps before the next one both ask here). Imported by workflow code: pure.
 */
import { delayAfterAttempt } from './retry-schedule';

export type AttemptStatus = 'succeeded' | 'retrying' | 'failed';

export interface AttemptDecision {
  /** The delivery's status after this attempt. */
  status: AttemptStatus;
  /** Milliseconds until the next attempt (counted from the end of this one), or null when none follows. */
  nextDelayMs: number | null;
}

export function decideAfterAttempt(attempt: number, succeeded: boolean): AttemptDecision {
  if (succeeded) return { status: 'succeeded', nextDelayMs: null };
  const delay = delayAfterAttempt(attempt);
  return delay === null ? { status: 'failed', nextDelayMs: null } : { status: 'retrying', nextDelayMs: delay };
}

import { decideAfterAttempt, nextStep, recordedResult, type AttemptResult } from '../../../src/domain/webhooks/attempt-decision';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../../src/domain/webhooks/retry-schedule';

const FAILURES: AttemptResult[] = [{ kind: 'timeout' }, { kind: 'network' }, { kind: 'status', statusCode: 500 }, { kind: 'status', statusCode: 301 }, { kind: 'status', statusCode: 410 }];

describe('decideAfterAttempt: is there another attempt, and when?', () => {
  it('a 2xx ends the delivery as succeeded, whatever the attempt', () => {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(decideAfterAttempt(attempt, { kind: 'status', statusCode: 204 })).toEqual({ status: 'succeeded', nextDelayMs: null });
    }
  });

  it('a failure of any kind before the last attempt is retrying, after the schedule delay', () => {
    for (const result of FAILURES) {
      for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
        expect(decideAfterAttempt(attempt, result)).toEqual({ status: 'retrying', nextDelayMs: RETRY_DELAYS_MS[attempt - 1] });
      }
    }
  });

  it('a failure of attempt 8 makes the delivery failed', () => {
    for (const result of FAILURES) expect(decideAfterAttempt(8, result)).toEqual({ status: 'failed', nextDelayMs: null });
  });

  it('a recorded attempt is decided from its status code', () => {
    expect(decideAfterAttempt(1, recordedResult({ status_code: 200 }))).toEqual({ status: 'succeeded', nextDelayMs: null });
    expect(decideAfterAttempt(1, recordedResult({ status_code: null }))).toEqual({ status: 'retrying', nextDelayMs: RETRY_DELAYS_MS[0] });
  });
});

describe('nextStep: the workflow follows the decision', () => {
  it('sleeps for the delay the decision carries', () => {
    expect(nextStep({ status: 'retrying', nextDelayMs: 7_000 })).toEqual({ retryAfterMs: 7_000 });
  });

  it('ends with the status of a finished decision', () => {
    expect(nextStep({ status: 'succeeded', nextDelayMs: null })).toEqual({ end: 'succeeded' });
    expect(nextStep({ status: 'cancelled', nextDelayMs: null })).toEqual({ end: 'cancelled' });
  });

  it('ends a retrying with no attempt left as failed, never as retrying', () => {
    expect(nextStep({ status: 'retrying', nextDelayMs: null })).toEqual({ end: 'failed' });
  });
});

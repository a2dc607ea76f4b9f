import { decideAfterAttempt } from '../../../src/domain/webhooks/attempt-decision';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../../src/domain/webhooks/retry-schedule';

describe('decideAfterAttempt: is there another attempt?', () => {
  it('a 2xx ends the delivery as succeeded, whatever the attempt', () => {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) expect(decideAfterAttempt(attempt, true)).toEqual({ status: 'succeeded', nextDelayMs: null });
  });

  it('a failure before the last attempt is retrying, after the schedule delay', () => {
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      expect(decideAfterAttempt(attempt, false)).toEqual({ status: 'retrying', nextDelayMs: RETRY_DELAYS_MS[attempt - 1] });
    }
  });

  it('a failure of attempt 8 makes the delivery failed', () => {
    expect(decideAfterAttempt(8, false)).toEqual({ status: 'failed', nextDelayMs: null });
  });
});

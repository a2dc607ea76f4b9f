import { defineUpdate } from '@temporalio/workflow';

export const RETRY_NOW_PATCH = 'retry-now';

/** What a woken delivery answers: the number of the attempt it now makes. */
export interface RetryNowResult {
  attempt: number;
}

/** Ends a delivery's wait for its next attempt. An update: rejected, nothing written, when not waiting. */
export const retryNow = defineUpdate<RetryNowResult>('retryNow');

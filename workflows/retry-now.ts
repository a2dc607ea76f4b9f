import { defineUpdate } from '@temporalio/workflow';

export const RETRY_NOW_PATCH = 'retry-now';

/** Ends a delivery's wait for its next attempt, answering the number of the attempt it now makes. An update: rejected, nothing written, when not waiting. */
export const retryNow = defineUpdate<{ attempt: number }>('retryNow');

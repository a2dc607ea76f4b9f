/**
 * How long an account's oldest start may wait in an outbox before it is refused. MAX_BACKLOG_S bounds the whole wait to
 * the first attempt: an in-process worker leaves it all to the outbox; else half, and Temporal's queue (lag-shares.ts) the rest.
 */
export function outboxWaitBoundMs(maxBacklogMs: number, workerInProcess: boolean): number {
  return workerInProcess ? maxBacklogMs : maxBacklogMs / 2;
}

/**
 * The share of that bound a new event's predicted wait may take (the wait itself keeps the whole bound): the prediction divides
 * by the recent start rate, which swings by half in seconds under overload (47–85 starts/s in consecutive 9 s, bench:overload).
 */
export const PREDICTED_WAIT_SHARE = 0.5;

/**
 * How long an account's oldest start may wait in an outbox before it is refused. MAX_BACKLOG_S bounds the
 * whole wait to the first attempt: with the worker in process the outbox may take all of it; otherwise
 * Temporal's queue adds its wait, so the outbox keeps half and the workers' reports (lag-shares.ts) the rest.
 */
export function outboxWaitBoundMs(maxBacklogMs: number, workerInProcess: boolean): number {
  return workerInProcess ? maxBacklogMs : maxBacklogMs / 2;
}

/**
 * The share of that bound a new event's predicted wait may take. The prediction divides by the start rate
 * of the last seconds, which swings by half within seconds under overload (47–85 starts/s in consecutive
 * 9 s at 2 × C, bench:overload), so it keeps room for that; the wait itself is still held to the whole bound.
 */
export const PREDICTED_WAIT_SHARE = 0.5;

/**
 * How long an account's oldest start may wait in an outbox before it is refused. MAX_BACKLOG_S bounds the
 * whole wait to the first attempt: with the worker in process the outbox may take all of it; otherwise
 * Temporal's queue adds its wait, so the outbox keeps half and the workers' reports (lag-shares.ts) the rest.
 */
export function outboxWaitBoundMs(maxBacklogMs: number, workerInProcess: boolean): number {
  return workerInProcess ? maxBacklogMs : maxBacklogMs / 2;
}

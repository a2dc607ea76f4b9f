/**
 * How long an account's oldest start may wait in an outbox before that account is refused.
 * MAX_BACKLOG_S bounds the whole wait from acceptance to the first attempt. With the worker in the
 * same process the start window keeps Temporal's part small, so the outbox may take all of it; in
 * an API-only process the wait in Temporal's queue comes on top, so the outbox keeps to half and
 * the workers' reports of the whole wait (lag-shares.ts) hold the rest.
 */
export function outboxWaitBoundMs(maxBacklogMs: number, workerInProcess: boolean): number {
  return workerInProcess ? maxBacklogMs : maxBacklogMs / 2;
}

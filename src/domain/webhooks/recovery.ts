/** Failed or cancelled deliveries to an endpoint since a time get a new round. Pure: a workflow imports it. */

/** How far back `since` may go: older deliveries are left to single manual retries. */
export const MAX_RECOVERY_WINDOW_MS = 7 * 24 * 3_600_000;
/** The most deliveries one recovery starts again (the oldest first); a second recovery continues after it ends. */
export const MAX_RECOVERY_DELIVERIES = 1_000;
/** Rounds started at once by a recovery workflow, so a large recovery does not flood the store. */
export const RECOVERY_BATCH = 10;

/** One recovery per endpoint at a time: its workflow id. */
export function recoveryWorkflowId(endpointId: string): string {
  return `recover-${endpointId}`;
}

/** Why `since` cannot be recovered from, or null when it can. */
export function recoverySinceProblem(since: Date, now: Date): string | null {
  if (Number.isNaN(since.getTime())) return 'since must be a date and time.';
  if (since.getTime() > now.getTime()) return 'since must not be in the future.';
  if (now.getTime() - since.getTime() > MAX_RECOVERY_WINDOW_MS) return 'since must be within the last 7 days.';
  return null;
}

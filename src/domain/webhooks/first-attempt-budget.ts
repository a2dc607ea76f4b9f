/**
 * How long a delivery's first attempt may keep its workflow task. A receiver that takes 25 s should
 * cost Temporal no more than one that answers at once, so the attempt keeps its task up to
 * `holdUpToMs`. It is handed off (two more Temporal writes and a timer) only past that, or after
 * HAND_OFF_AFTER_MS when its process holds as many attempts as it has room for.
 */

/**
 * Workflow task time-out of delivery runs: a task holding a 30 s POST is never extended by the SDK
 * (which completes a task early at 80 % of the time-out). Also how long Temporal waits before another
 * worker makes the first attempt of a worker that died mid-POST.
 */
export const DELIVERY_TASK_TIMEOUT_MS = 45_000;

/** A slow first attempt is handed off after this when its process cannot hold it (or its run cannot: `holdUpToMs`). */
export const HAND_OFF_AFTER_MS = 2_000;

/** The SDK extends (completes and reopens) a workflow task held this far into its time-out. */
export const SDK_EXTENDS_TASK_AT = 0.8;

/** Time left after the attempt for the task's completion to reach Temporal before the SDK would extend it. */
const COMPLETION_MARGIN_MS = 2_000;

/**
 * How long a first attempt may hold its run's workflow task: up to the SDK's extension point, less a
 * margin (34 s with DELIVERY_TASK_TIMEOUT_MS: a 30 s POST plus name lookup and record).
 */
export function holdUpToMs(taskTimeoutMs: number): number {
  return Math.max(HAND_OFF_AFTER_MS, Math.floor(taskTimeoutMs * SDK_EXTENDS_TASK_AT) - COMPLETION_MARGIN_MS);
}

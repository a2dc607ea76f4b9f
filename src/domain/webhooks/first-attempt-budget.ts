/** A slow receiver should cost Temporal no more than a fast one, so first attempts may hold their task. */

/**
 * Delivery runs' task time-out: the SDK never extends a task holding a 30 s POST (it would at 80 %). Also
 * how long before another worker remakes a first attempt whose worker died mid-POST.
 */
export const DELIVERY_TASK_TIMEOUT_MS = 45_000;

/** A slow first attempt is handed off after this when its process cannot hold it (or its run cannot: `holdUpToMs`). */
export const HAND_OFF_AFTER_MS = 2_000;

/** The SDK extends (completes and reopens) a workflow task held this far into its time-out. */
export const SDK_EXTENDS_TASK_AT = 0.8;

/** Time left after the attempt for the task's completion to reach Temporal before the SDK would extend it. */
const COMPLETION_MARGIN_MS = 2_000;

/** The SDK's extension point less a margin: 34 s with DELIVERY_TASK_TIMEOUT_MS (30 s POST, lookup, record). */
export function holdUpToMs(taskTimeoutMs: number): number {
  return Math.max(HAND_OFF_AFTER_MS, Math.floor(taskTimeoutMs * SDK_EXTENDS_TASK_AT) - COMPLETION_MARGIN_MS);
}

/**
 * How long a delivery's first attempt may keep its workflow task.
 *
 * The first attempt runs inside the run's first workflow task (a local activity): the POST is made
 * and reported with that task's completion, which is all a delivery costs Temporal when its receiver
 * answers. A receiver that takes 25 s (inside the 30 s POST limit) should cost Temporal no more than
 * one that answers at once, so the attempt keeps its task until the receiver answers, up to
 * `holdUpToMs`. It is handed off (its POST goes on in the process, which reports the outcome to
 * the workflow: two more Temporal writes and a timer) only past that, or after HAND_OFF_AFTER_MS
 * when its process already holds as many attempts as it has room for.
 */

/**
 * Workflow task time-out of delivery runs. Long enough that a task holding a POST up to its 30 s
 * limit is never extended by the SDK (it completes a task early at 80 % of the time-out, one write
 * every 8 s at Temporal's default 10 s). It is also how long Temporal waits before another worker
 * makes the first attempt of a worker that died mid-POST: the same 45 s as the wait for a
 * handed-off attempt's report.
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
 * margin: 34 s for runs with DELIVERY_TASK_TIMEOUT_MS (a 30 s POST plus name lookup and record),
 * 6 s for runs started with Temporal's 10 s default before this rule.
 */
export function holdUpToMs(taskTimeoutMs: number): number {
  return Math.max(HAND_OFF_AFTER_MS, Math.floor(taskTimeoutMs * SDK_EXTENDS_TASK_AT) - COMPLETION_MARGIN_MS);
}

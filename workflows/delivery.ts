import {
  CancellationScope,
  condition,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { AttemptInput, AttemptOutcome, DeliveryActivities, DeliveryTarget } from '../activities/delivery-activities';
import type { CollectedOutcome } from '../activities/attempt-hand-off';
import { attemptCollected, attemptOutcome } from './attempt-collected';
import { nextStep } from '../src/domain/webhooks/attempt-decision';
import { HAND_OFF_AFTER_MS, holdUpToMs } from '../src/domain/webhooks/first-attempt-budget';
import { readableDelay } from '../src/domain/webhooks/retry-schedule';
import { WEBHOOK_ATTEMPT_COUNT, WEBHOOK_DELIVERY_STATUS } from '../src/temporal/search-attributes';

export type DeliveryWorkflowInput = DeliveryTarget;

/** WorkflowExecutionStarted, WorkflowTaskScheduled, WorkflowTaskStarted: the run's first task. */
const FIRST_TASK_HISTORY_LENGTH = 3;

export interface DeliveryWorkflowResult {
  status: Exclude<AttemptOutcome['status'], 'retrying'>;
  attempts: number;
}

/**
 * Activity retries cover only our own infrastructure faults (database or worker down) and an
 * attempt throttled because its account's places in the worker were taken (`AttemptThrottled`, which
 * sets its own delay; delivery.md "Fairness"): an attempt's outcome, whatever the receiver did, is a returned value.
 * So these retries never add or skip a delivery attempt; they only wait for the attempt to be made.
 */
const INFRASTRUCTURE_RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' } as const;
/** Below the shortest retry delay (1 s; a throttled attempt waits at least half of it): no retry is made within the task. */
const LOCAL_RETRY_THRESHOLD = '400 ms';
/** 30 s POST + DNS + one store read and write. */
const ATTEMPT_TIMEOUT = '90 seconds';

/**
 * The first attempt is a local activity (workflows started since the `local-attempts` patch): the
 * worker running the workflow task makes the POST and reports it with that task's completion.
 * Temporal then schedules, dispatches and stores no activity task and no second workflow task,
 * which is most of what a delivery costs it (bench/temporal-ceiling.ts: a workflow with one local activity
 * runs at about twice the rate of one with a regular activity), and nearly every delivery ends
 * with its first attempt. If the worker dies mid-attempt, the workflow task times out
 * (DELIVERY_TASK_TIMEOUT_MS, 45 s) and another worker makes the attempt.
 */
const local = proxyLocalActivities<DeliveryActivities>({
  startToCloseTimeout: ATTEMPT_TIMEOUT,
  retry: INFRASTRUCTURE_RETRY,
  // Every retry of a local attempt waits on a workflow timer, not inside the task: a throttled
  // attempt (its account's places taken) or a store that is down must not hold a workflow task,
  // which belongs to every account's deliveries.
  localRetryThreshold: LOCAL_RETRY_THRESHOLD,
});

/**
 * Retries (and every attempt of workflows started before the patch) are regular activities that
 * heartbeat while they wait for the receiver, so a dead worker is noticed within the heartbeat
 * time-out: they go to receivers that failed, which are the slow ones. The cancellation record is
 * a regular activity in every version.
 */
const { attemptDelivery, cancelDelivery } = proxyActivities<DeliveryActivities>({
  startToCloseTimeout: ATTEMPT_TIMEOUT,
  heartbeatTimeout: '8 seconds',
  retry: INFRASTRUCTURE_RETRY,
});

/**
 * Workflows started before the `collect-by-signal` patch collect a handed-off outcome with a regular
 * activity on the queue its process names. The collection is given time for the POST it waits for to end whatever happens (30 s POST time-out
 * after up to 5 s of DNS, then its record), and no heartbeat: only a process that is gone lets it
 * time out, so an attempt is never made again while its first POST may still be in flight in a
 * process that is merely busy. A dead process's handed-off attempts are made again within 45 s.
 */
const COLLECT_SCHEDULE_TO_START = '40 seconds';
const COLLECT_START_TO_CLOSE = '45 seconds';
/**
 * Patch `collect-by-signal`: how long the workflow waits for a handed-off attempt's outcome to be
 * signalled (attempt-collected.ts). The same bound as the collection above: the POST ends within
 * 35 s of its start whatever happens, so only a process that is gone lets the wait run out.
 */
const COLLECT_WAIT = '45 seconds';

/**
 * The changes of the delivery workflow since its first release, as a run has them. Runs of
 * `deliveryWorkflow` (started before `deliveryWorkflowV2`) ask Temporal's patches, each at the
 * same point of the run as ever, so that their histories replay; runs of V2 have them all.
 */
interface Changes {
  /** `local-attempts`: the first attempt is a local activity. */
  localAttempts(): boolean;
  /** `local-hand-off`: a slow local first attempt is handed off. */
  localHandOff(): boolean;
  /**
   * How a handed-off outcome comes back, asked only after a hand-off: `collect-by-signal` runs are
   * signalled (else they collect it with an activity); V2 runs are told by update.
   */
  collection(): 'activity' | 'signal' | 'update';
  /** `readable-retry-delays`: the retry timer's summary reads "after 30 min". */
  readableRetryDelays(): boolean;
  /** What the local attempt is asked to report by, once handed off (not a patch: an activity input). */
  readonly reportBy: 'signal' | 'update';
}

const ASKED_OF_PATCHES: Changes = {
  localAttempts: () => patched('local-attempts'),
  localHandOff: () => patched('local-hand-off'),
  collection: () => (patched('collect-by-signal') ? 'signal' : 'activity'),
  readableRetryDelays: () => patched('readable-retry-delays'),
  reportBy: 'signal',
};

const ALL_CHANGES: Changes = {
  localAttempts: () => true,
  localHandOff: () => true,
  collection: () => 'update',
  readableRetryDelays: () => true,
  reportBy: 'update',
};

async function makeAttempt(input: DeliveryWorkflowInput, attempt: number, changes: Changes): Promise<AttemptOutcome> {
  if (attempt === 1 && changes.localAttempts()) {
    // Only the run's first workflow task is sure that no earlier try of the attempt has posted; a
    // task retried after its worker died reads the attempt's record first (a regular activity
    // knows it from its own attempt number).
    const mayRepeat = workflowInfo().historyLength > FIRST_TASK_HISTORY_LENGTH;
    // A slow receiver keeps the task up to what the run's time-out allows (first-attempt-budget.ts),
    // else the attempt is handed off and its outcome reported; a history recorded before
    // `collect-by-signal` has its attempt's process keep the outcome for `collectAttempt` instead.
    // Inputs of a local activity are not part of its marker, so runs in flight replay unchanged.
    const handOff = changes.localHandOff()
      ? { handOffAfterMs: HAND_OFF_AFTER_MS, holdUpToMs: holdUpToMs(workflowInfo().taskTimeoutMs), collectBy: changes.reportBy }
      : {};
    const outcome = await local.attemptDelivery({ ...input, attempt, mayRepeat, ...handOff });
    if (outcome.status !== 'handed-off') return outcome;
    // Asked only here, so that a delivery whose first attempt is not handed off (nearly all) records no marker for it.
    const collection = changes.collection();
    if (collection !== 'activity') {
      const collected = await reportedOutcome(input.round, attempt, collection);
      // Not told in time (its process is gone), or told it failed unrecorded: made again here, answered from the record if it was recorded.
      return collected ?? regularAttempt({ ...input, attempt, mayRepeat: true });
    }
    const { collectAttempt } = proxyActivities<DeliveryActivities>({
      taskQueue: outcome.collectOn,
      scheduleToStartTimeout: COLLECT_SCHEDULE_TO_START,
      startToCloseTimeout: COLLECT_START_TO_CLOSE,
      retry: { maximumAttempts: 1 },
    });
    try {
      return await collectAttempt({ ...input, attempt });
    } catch {
      // Its process is gone or lost it: made again here, answered from the record if it was recorded.
      return regularAttempt({ ...input, attempt, mayRepeat: true });
    }
  }
  return regularAttempt({ ...input, attempt });
}

/** The outcome of a handed-off attempt as its process reports it, or undefined if it does not within COLLECT_WAIT or has none. */
async function reportedOutcome(round: number, attempt: number, via: 'signal' | 'update'): Promise<AttemptOutcome | undefined> {
  let collected: CollectedOutcome | undefined;
  const awaited = (report: CollectedOutcome) => collected === undefined && report.round === round && report.attempt === attempt;
  // A signal or update that came before its handler was set is buffered by the SDK and delivered now.
  if (via === 'signal') {
    setHandler(attemptCollected, (report) => {
      if (awaited(report)) collected = report;
    });
  } else {
    setHandler(
      attemptOutcome,
      (report) => {
        collected = report;
      },
      {
        // Rejected before anything is written: a report of another round or attempt, or a repeat.
        validator: (report) => {
          if (!awaited(report)) throw new Error(`Not waiting for the outcome of round ${report.round}, attempt ${report.attempt}.`);
        },
      },
    );
  }
  const told = await condition(() => collected !== undefined, COLLECT_WAIT);
  return told ? collected?.outcome : undefined;
}

async function regularAttempt(input: AttemptInput): Promise<AttemptOutcome> {
  const outcome = await attemptDelivery(input);
  // Only a local attempt with a budget is handed off; anything else is a bug, and the task retries.
  if (outcome.status === 'handed-off') throw new Error('a regular attempt was handed off');
  return outcome;
}

/**
 * One delivery of one event to one endpoint (workflow id `delivery-<eventId>-<endpointId>`), as
 * the platform starts it (DELIVERY_WORKFLOW_TYPE). Its timers are the retry
 * schedule: attempt, and after a failure sleep for the delay the attempt's decision carries
 * (attempt-decision.ts decides it once), at most 8 attempts. Deterministic: all I/O is in the
 * activities.
 *
 * A new type rather than more patches: each `patched()` records a marker and upserts the
 * `TemporalChangeVersion` search attribute (the SDK's doing), on every run; a run whose first
 * attempt is handed off pays that upsert as a visibility write of its own, on the one SQLite
 * connection of the embedded server. A worker without
 * this type fails its task, which Temporal retries until a worker that has it takes it, so a
 * rolling upgrade is safe. Changes from here on are patched in this function.
 */
export async function deliveryWorkflowV2(input: DeliveryWorkflowInput): Promise<DeliveryWorkflowResult> {
  return runDelivery(input, ALL_CHANGES);
}

/**
 * The delivery workflow as it was started before `deliveryWorkflowV2`: kept so that its runs (retrying for up
 * to a day) finish, with their patches asked as they were recorded (test/workflow/replay.test.ts).
 */
export async function deliveryWorkflow(input: DeliveryWorkflowInput): Promise<DeliveryWorkflowResult> {
  return runDelivery(input, ASKED_OF_PATCHES);
}

async function runDelivery(input: DeliveryWorkflowInput, changes: Changes): Promise<DeliveryWorkflowResult> {
  let attempts = 0;
  try {
    for (let attempt = 1; ; attempt++) {
      // An attempt in flight always finishes and is recorded; a cancellation takes effect after it.
      const outcome = await CancellationScope.nonCancellable(() => makeAttempt(input, attempt, changes));
      attempts = outcome.status === 'cancelled' ? attempt - 1 : attempt;
      const step = nextStep(outcome, attempt);
      upsertSearchAttributes([
        { key: WEBHOOK_DELIVERY_STATUS, value: 'end' in step ? step.end : 'retrying' },
        { key: WEBHOOK_ATTEMPT_COUNT, value: attempts },
      ]);
      if ('end' in step) return { status: step.end, attempts };
      const delay = step.retryAfterMs;
      // The timer's summary is in the history: workflows started before it read "after 1800 s" keep it.
      const after = changes.readableRetryDelays() ? readableDelay(delay) : `${delay / 1000} s`;
      await sleep(delay, { summary: `retry ${attempt + 1} after ${after}` });
    }
  } catch (err) {
    if (!isCancellation(err)) throw err;
    // Cancelled from outside (endpoint deleted or disabled): record it, then end as cancelled.
    await CancellationScope.nonCancellable(() => cancelDelivery(input));
    upsertSearchAttributes([{ key: WEBHOOK_DELIVERY_STATUS, value: 'cancelled' }]);
    throw err;
  }
}

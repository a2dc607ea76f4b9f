import {
  CancellationScope,
  condition,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  type SignalDefinition,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { AttemptInput, AttemptOutcome, DeliveryActivities, DeliveryTarget } from '../activities/delivery-activities';
import type { ReportedOutcome } from '../activities/attempt-hand-off';
import { INFRASTRUCTURE_RETRY } from './activity-options';
import { attemptOutcome } from './attempt-outcome';
import { resume } from './resume';
import { FIFO_PATCH, fifoTurn } from './fifo-turn';
import { RETRY_NOW_PATCH, retryNow } from './retry-now';
import { nextStep } from '../src/domain/webhooks/attempt-decision';
import { PAUSED_RECHECK_MS } from '../src/domain/webhooks/endpoint-pause';
import { fifoRecheckMs } from '../src/domain/webhooks/fifo-order';
import { HAND_OFF_AFTER_MS, holdUpToMs } from '../src/domain/webhooks/first-attempt-budget';
import { readableDelay } from '../src/domain/webhooks/retry-schedule';
import { WEBHOOK_ATTEMPT_COUNT, WEBHOOK_DELIVERY_STATUS } from '../src/temporal/search-attributes';

export type DeliveryWorkflowInput = DeliveryTarget;

/** WorkflowExecutionStarted, WorkflowTaskScheduled, WorkflowTaskStarted: the run's first task. */
const FIRST_TASK_HISTORY_LENGTH = 3;

/** Below the shortest retry delay (1 s; a throttled attempt waits at least half of it): no retry holds the task, on a timer instead. */
const LOCAL_RETRY_THRESHOLD = '400 ms';
/** Up to 90 s: a 30 s POST + DNS + one store read and write. */
const ATTEMPT = { startToCloseTimeout: '90 seconds', retry: INFRASTRUCTURE_RETRY } as const;

/** First attempts (nearly every delivery ends there) run locally, about twice the throughput; a worker dying times the task out. */
const local = proxyLocalActivities<DeliveryActivities>({ ...ATTEMPT, localRetryThreshold: LOCAL_RETRY_THRESHOLD });

/** Retries go to receivers that failed, the slow ones: regular activities whose heartbeat shows a dead worker. */
const { attemptDelivery, cancelDelivery } = proxyActivities<DeliveryActivities>({ ...ATTEMPT, heartbeatTimeout: '8 seconds' });

/** The wait for a hand-off's report: its POST ends within 35 s (5 s DNS, 30 s POST) if its process lives. */
const REPORT_WAIT = '45 seconds';

/** The workflow's input, and whether this run waits its turn on a FIFO endpoint (AttemptInput.queued). */
type Target = DeliveryWorkflowInput & { queued?: true };

async function makeAttempt(input: Target, attempt: number): Promise<AttemptOutcome> {
  if (attempt > 1) return regularAttempt({ ...input, attempt, pausable: true });
  const mayRepeat = workflowInfo().historyLength > FIRST_TASK_HISTORY_LENGTH;
  // A slow receiver keeps the task as long as its time-out allows (first-attempt-budget.ts), else hands off.
  const handOff = { handOffAfterMs: HAND_OFF_AFTER_MS, holdUpToMs: holdUpToMs(workflowInfo().taskTimeoutMs) };
  const outcome = await local.attemptDelivery({ ...input, attempt, mayRepeat, pausable: true, ...handOff });
  if (outcome.status !== 'handed-off') return outcome;
  const reported = await reportedOutcome(input.round, attempt);
  // Not told in time (its process is gone), or told it failed unrecorded: made again here, answered from the record if it was recorded.
  return reported ?? regularAttempt({ ...input, attempt, mayRepeat: true, pausable: true });
}

/** A regular activity (a resume wakes many at once), without `acceptedAt`: waiting for its owner is not lateness. */
function attemptAfterPause(input: Target, attempt: number): Promise<AttemptOutcome> {
  const { acceptedAt: _, ...target } = input;
  return regularAttempt({ ...target, attempt, pausable: true });
}

/** The outcome of a handed-off attempt as its process reports it, or undefined if it does not within REPORT_WAIT or has none. */
async function reportedOutcome(round: number, attempt: number): Promise<AttemptOutcome | undefined> {
  let reported: ReportedOutcome | undefined;
  // An update that came before its handler was set is buffered by the SDK and delivered now.
  setHandler(
    attemptOutcome,
    (report) => {
      reported = report;
    },
    {
      validator: (report) => {
        if (reported !== undefined || report.round !== round || report.attempt !== attempt) {
          throw new Error(`Not waiting for the outcome of round ${report.round}, attempt ${report.attempt}.`);
        }
      },
    },
  );
  const told = await condition(() => reported !== undefined, REPORT_WAIT);
  return told ? reported?.outcome : undefined;
}

async function regularAttempt(input: AttemptInput): Promise<AttemptOutcome> {
  const outcome = await attemptDelivery(input);
  // Only a local attempt with a budget is handed off; anything else is a bug, and the task retries.
  if (outcome.status === 'handed-off') throw new Error('a regular attempt was handed off');
  return outcome;
}

/** One event to one endpoint: attempt, then sleep the decided delay. Patch and replay-test command changes. */
export async function deliveryWorkflow(input: DeliveryWorkflowInput): Promise<{ status: Exclude<AttemptOutcome['status'], 'retrying' | 'paused' | 'queued'>; attempts: number }> {
  let attempts = 0;
  const wait = wakeableWait();
  const pause = signalledWait(resume);
  const turn = signalledWait(fifoTurn);
  // FIFO waits in a row that no signal ended: a lost signal is looked for less and less often.
  let fifoLooks = 0;
  // Runs started before FIFO endpoints, replayed, never wait a turn.
  const target: Target = patched(FIFO_PATCH) ? { ...input, queued: true } : input;
  try {
    for (let attempt = 1; ; attempt++) {
      pause.beforeAttempt();
      turn.beforeAttempt();
      // An attempt in flight always finishes and is recorded; a cancellation takes effect after it.
      let outcome = await CancellationScope.nonCancellable(() => makeAttempt(target, attempt));
      let shown: AttemptOutcome['status'] | undefined;
      while (outcome.status === 'paused' || outcome.status === 'queued') {
        if (outcome.status !== shown) upsertSearchAttributes([{ key: WEBHOOK_DELIVERY_STATUS, value: outcome.status }]);
        shown = outcome.status;
        if (outcome.status === 'paused') await pause.until(PAUSED_RECHECK_MS, `paused: attempt ${attempt} waits for resume`);
        else fifoLooks = (await turn.until(fifoRecheckMs(fifoLooks), 'queued: waits for its FIFO turn')) ? 0 : fifoLooks + 1;
        pause.beforeAttempt();
        turn.beforeAttempt();
        outcome = await CancellationScope.nonCancellable(() => attemptAfterPause(target, attempt));
      }
      attempts = outcome.status === 'cancelled' ? attempt - 1 : attempt;
      const step = nextStep(outcome);
      upsertSearchAttributes([
        { key: WEBHOOK_DELIVERY_STATUS, value: 'end' in step ? step.end : 'retrying' },
        { key: WEBHOOK_ATTEMPT_COUNT, value: attempts },
      ]);
      if ('end' in step) return { status: step.end, attempts };
      const delay = step.retryAfterMs;
      const summary = `retry ${attempt + 1} after ${readableDelay(delay)}`;
      // Runs started before retry-now, replayed up to their current wait, keep a plain timer; their later waits can be woken.
      if (patched(RETRY_NOW_PATCH)) await wait.until(attempt + 1, delay, summary);
      else await sleep(delay, { summary });
    }
  } catch (err) {
    if (!isCancellation(err)) throw err;
    // Cancelled from outside (endpoint deleted or disabled): record it, then end as cancelled.
    await CancellationScope.nonCancellable(() => cancelDelivery(input));
    upsertSearchAttributes([{ key: WEBHOOK_DELIVERY_STATUS, value: 'cancelled' }]);
    throw err;
  }
}

/** Until `signal` or `timeoutMs`; cleared before each attempt, so one sent while the attempt is in flight ends the wait. */
function signalledWait(signal: SignalDefinition) {
  let told = false;
  setHandler(signal, () => {
    told = true;
  });
  return {
    beforeAttempt(): void {
      told = false;
    },
    until: (timeoutMs: number, summary: string) => condition(() => told, timeoutMs, { summary }),
  };
}

/** The wait before the next attempt, which the retryNow update (retry-now.ts) ends at once. */
function wakeableWait() {
  let waitingFor: number | undefined;
  let woken = false;
  setHandler(
    retryNow,
    () => {
      woken = true;
      return { attempt: waitingFor as number };
    },
    {
      validator: () => {
        if (waitingFor === undefined || woken) throw new Error('Not waiting for a retry: an attempt is in flight, or about to be made.');
      },
    },
  );
  return {
    async until(attempt: number, delayMs: number, summary: string): Promise<void> {
      waitingFor = attempt;
      woken = false;
      try {
        await condition(() => woken, delayMs, { summary });
      } finally {
        waitingFor = undefined;
      }
    },
  };
}

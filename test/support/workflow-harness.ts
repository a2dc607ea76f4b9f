import { WorkflowClient, type ConnectionPlugin } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { ApplicationFailure, defaultPayloadConverter } from '@temporalio/common';
import { THROTTLED, type AttemptInput, type AttemptOutcome, type DeliveryActivities, type DeliveryTarget } from '../../activities/delivery-activities';
import { delayAfterAttempt } from '../../src/domain/webhooks/retry-schedule';
import { workflowBundle } from '../../src/temporal/worker';
import { attemptOutcome } from '../../workflows/attempt-outcome';
import { resume } from '../../workflows/resume';
import { fifoTurn } from '../../workflows/fifo-turn';
import { retryNow } from '../../workflows/retry-now';
import { deliveryWorkflow } from '../../workflows/delivery';
import { waitsBefore, waitsPaused, waitsQueued } from './delivery-workflows';
import { registerSearchAttributes } from './search-attributes';

/**
 * The client's keepalive pings no more often than the test server permits (grpc-java: one per 5
 * minutes). At the SDK's 30 s the server answers a long call (a time-skipping sleep) with GOAWAY
 * "too_many_pings" once a suite has lived about 90 s, as on a loaded machine, and the call is lost.
 */
const pingsAsTheTestServerPermits: ConnectionPlugin = {
  name: 'pings-as-the-test-server-permits',
  configureConnection: (options) => ({
    ...options,
    channelArgs: { ...options.channelArgs, 'grpc.keepalive_time_ms': 6 * 60_000, 'grpc.keepalive_permit_without_calls': 0 },
  }),
};

/** A time-skipping Temporal test server with our search attributes registered. */
export async function startTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: process.env.TEMPORAL_TEST_SERVER_PATH as string } },
    plugins: [pingsAsTheTestServerPermits],
  });
  await registerSearchAttributes(env);
  return env;
}

/**
 * For a suite: a time-skipping server started before its tests and torn down after them. Call it
 * in the `describe` body; the getter answers the server once the suite's tests run.
 */
export function timeSkippingEnv(): () => TestWorkflowEnvironment {
  let env: TestWorkflowEnvironment | undefined;
  beforeAll(async () => {
    env = await startTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });
  return () => env as TestWorkflowEnvironment;
}

/** Every attempt fails; the last ends the delivery failed. */
export const failUntilLast = (attempt: number): AttemptOutcome['status'] => (delayAfterAttempt(attempt) === null ? 'failed' : 'retrying');

export interface ScenarioRun {
  result: unknown;
  calls: Array<{ attempt: number; atMs: number; mayRepeat: boolean | undefined; holdUpToMs?: number; queued?: boolean }>;
  cancelled: DeliveryTarget[];
  workflowId: string;
  /** Why the workflow refused the handed-off attempt's report, if it did. */
  reportError?: unknown;
  /** What the retry-now update answered (`result`) or why it was refused (`error`), when one was sent. */
  retryNow?: { result?: { attempt: number }; error?: unknown };
}

/**
 * When a scenario sends retry-now: during the wait before attempt `attempt` (once its timer is
 * started), or while attempt `attempt` is in flight (its activity waits for the answer).
 */
export type RetryNowAt = { during: 'wait' | 'attempt'; attempt: number };

/**
 * Attempt `attempt` finds its endpoint paused `times` times (default 1) before its outcome is
 * `outcomes(attempt)`. What ends each wait: `signal`, the resume signal once the run waits (after a
 * retry now, refused, with `retryNowFirst`); `signal-in-flight`, the signal sent while the paused
 * attempt is still in flight; `timer`, nothing (the fallback timer fires); `cancel`, the run is
 * cancelled once it waits.
 */
export type PausedAt = { attempt: number; times?: number; then: 'signal' | 'signal-in-flight' | 'timer' | 'cancel'; retryNowFirst?: boolean };

/**
 * The first attempt finds an earlier delivery to its FIFO endpoint holding the turn `times` times
 * (default 1) before its outcome is `outcomes(1)`. What ends each wait, as for PausedAt, with the
 * `fifoTurn` signal. Only an attempt whose input says the run waits turns (`queued`) answers so.
 */
export type QueuedAt = { times?: number; then: 'signal' | 'signal-in-flight' | 'timer' | 'cancel' };

/**
 * Runs the real delivery workflow on the test server with fake activities whose outcome per
 * attempt is `outcomes(attempt)`. Mocked activities are what make this a unit test of the
 * workflow's logic; the real activities are covered by the integration tests.
 */
/** A client whose starts carry a sampled W3C traceparent where Temporal's OpenTelemetry interceptors put it. */
function sampledTraceClient(env: TestWorkflowEnvironment): WorkflowClient {
  const carrier = { traceparent: `00-${'4bf92f3577b34da6a3ce929d0e0e4736'}-${'00f067aa0ba902b7'}-01` };
  return new WorkflowClient({
    connection: env.connection,
    interceptors: [{ start: (input, next) => next({ ...input, headers: { ...input.headers, '_tracer-data': defaultPayloadConverter.toPayload(carrier) } }) }],
  });
}

export async function runDeliveryScenario(
  env: TestWorkflowEnvironment,
  outcomes: (attempt: number) => AttemptOutcome['status'],
  /** handOffFirst: the first attempt is handed off (activities/attempt-hand-off.ts) and its outcome reported. */
  /**
   * handedOffSignal (with handOffFirst): what the process tells the workflow by update. `outcome`
   * (default) tells the attempt's outcome, `no-outcome` that it failed unrecorded, `never` sends
   * nothing (the process died), `stray` tells an outcome for another attempt (its rejection is in
   * `reportError`).
   */
  /** delays: the delay an attempt's decision carries (default: the schedule's). */
  /** workflowTaskTimeoutMs: the run's workflow task time-out (default: the server's, 10 s). */
  /** throttledFirst: the first attempt finds no place (AttemptThrottled, 2 s delay) this many times before it is made. */
  /** retryNow: sends the retry-now update at that point (see RetryNowAt). */
  /** tracedBy: the workflow interceptor module bundled (tracing on); the run is started as part of a sampled trace. */
  options: {
    tracedBy?: string;
    retryNow?: RetryNowAt;
    throttledFirst?: number;
    cancelAfterAttempt?: number;
    handOffFirst?: boolean;
    handedOffSignal?: 'outcome' | 'no-outcome' | 'never' | 'stray';
    delays?: (attempt: number) => number;
    workflowTaskTimeoutMs?: number;
    paused?: PausedAt;
    queued?: QueuedAt;
  } = {},
): Promise<ScenarioRun> {
  const calls: ScenarioRun['calls'] = [];
  const cancelled: DeliveryTarget[] = [];
  const taskQueue = `scenario-${Math.random().toString(36).slice(2)}`;
  const workflowId = `delivery-1-${taskQueue}`;
  let onAttempt: (attempt: number) => void = () => undefined;
  // Settles once a handed-off attempt's process has told the workflow (when it tells at all).
  let reported!: () => void;
  let reportError: unknown;
  const told = new Promise<void>((resolve) => (reported = resolve));
  const tells = options.handOffFirst === true && (options.handedOffSignal ?? 'outcome') !== 'never';
  const outcomeOf = (attempt: number): AttemptOutcome => {
    const status = outcomes(attempt);
    const nextDelayMs = status === 'retrying' ? (options.delays?.(attempt) ?? delayAfterAttempt(attempt)) : null;
    return { status, nextDelayMs, statusCode: 500 } as AttemptOutcome;
  };
  let throttled = 0;
  let pausedTimes = 0;
  let queuedTimes = 0;
  const sendResume = () => env.client.workflow.getHandle(workflowId).signal(resume);
  const sendTurn = () => env.client.workflow.getHandle(workflowId).signal(fifoTurn);
  let retryNowAnswer: ScenarioRun['retryNow'];
  const sendRetryNow = async () => {
    retryNowAnswer = await env.client.workflow
      .getHandle(workflowId)
      .executeUpdate(retryNow)
      .then((result) => ({ result }), (error: unknown) => ({ error }));
  };
  const activities: DeliveryActivities = {
    async attemptDelivery(a: AttemptInput) {
      calls.push({ attempt: a.attempt, atMs: await env.currentTimeMs(), mayRepeat: a.mayRepeat, holdUpToMs: a.holdUpToMs, queued: a.queued });
      if (a.attempt === 1 && throttled < (options.throttledFirst ?? 0)) {
        throttled++;
        throw ApplicationFailure.create({ message: 'no place', type: THROTTLED, nextRetryDelay: '2 seconds' });
      }
      if (options.handOffFirst && a.attempt === 1 && a.handOffAfterMs !== undefined) {
        const signal = options.handedOffSignal ?? 'outcome';
        if (signal !== 'never') {
          if (signal === 'outcome') onAttempt(a.attempt);
          const report = { round: a.round, attempt: signal === 'stray' ? a.attempt + 1 : a.attempt, outcome: signal === 'no-outcome' ? undefined : outcomeOf(a.attempt) };
          // An update completes only in a task after this one: not awaited here. The result is
          // awaited (which lets the server skip time) only once the update has completed.
          void env.client.workflow
            .getHandle(workflowId)
            .executeUpdate(attemptOutcome, { args: [report] })
            .catch((err: unknown) => void (reportError = err))
            .finally(reported);
        }
        return { status: 'handed-off' as const };
      }
      const queued = options.queued;
      if (queued && a.queued && a.attempt === 1 && queuedTimes < (queued.times ?? 1)) {
        queuedTimes++;
        if (queued.then === 'signal-in-flight') await sendTurn();
        return { status: 'queued' as const, nextDelayMs: null, statusCode: null };
      }
      const paused = options.paused;
      if (paused && paused.attempt === a.attempt && pausedTimes < (paused.times ?? 1)) {
        pausedTimes++;
        if (paused.then === 'signal-in-flight') await sendResume();
        return { status: 'paused' as const, nextDelayMs: null, statusCode: null };
      }
      onAttempt(a.attempt);
      // A regular activity: its workflow task has completed, so the update gets one of its own while this attempt is in flight.
      if (options.retryNow?.during === 'attempt' && options.retryNow.attempt === a.attempt) await sendRetryNow();
      return outcomeOf(a.attempt);
    },
    async cancelDelivery(t: DeliveryTarget) {
      cancelled.push(t);
    },
  };
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: await workflowBundle(options.tracedBy), activities });
  const starter = options.tracedBy ? sampledTraceClient(env) : env.client.workflow;
  const result = await worker.runUntil(async () => {
    const handle = await starter.start(deliveryWorkflow, {
      taskQueue,
      workflowId,
      ...(options.workflowTaskTimeoutMs !== undefined ? { workflowTaskTimeout: options.workflowTaskTimeoutMs } : {}),
      args: [{ eventId: 1, endpointId: 'ep_test', accountId: 'acct_test', round: 1, type: 'order.created', timestamp: 1_795_000_000, body: '{"id":1,"type":"order.created","data":{},"timestamp":1795000000}' }],
    });
    if (options.cancelAfterAttempt !== undefined) {
      const target = options.cancelAfterAttempt;
      onAttempt = (attempt) => {
        if (attempt === target) void handle.cancel();
      };
    }
    if (tells) await told;
    // Found waiting paused before time is skipped (the result is not awaited yet), so its fallback timer cannot fire first.
    if (options.paused?.then === 'signal' || options.paused?.then === 'cancel') {
      const { attempt, then, retryNowFirst } = options.paused;
      while (!(await waitsPaused(env.client, workflowId, attempt))) await new Promise((r) => setTimeout(r, 20));
      if (retryNowFirst) await sendRetryNow();
      if (then === 'signal') await sendResume();
      else await handle.cancel();
    }
    if (options.queued?.then === 'signal' || options.queued?.then === 'cancel') {
      while (!(await waitsQueued(env.client, workflowId))) await new Promise((r) => setTimeout(r, 20));
      if (options.queued.then === 'signal') await sendTurn();
      else await handle.cancel();
    }
    // Time is not skipped until the result is awaited: the wait is found and ended before its timer can fire.
    if (options.retryNow?.during === 'wait') {
      const before = options.retryNow.attempt;
      while (!(await waitsBefore(env.client, workflowId, before))) await new Promise((r) => setTimeout(r, 20));
      await sendRetryNow();
    }
    return handle.result().catch((err: unknown) => ({ error: (err as Error).name, cause: (err as { cause?: Error }).cause?.name }));
  });
  return { result, calls, cancelled, workflowId, reportError, retryNow: retryNowAnswer };
}

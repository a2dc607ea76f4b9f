import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { AttemptInput, AttemptOutcome, DeliveryActivities, DeliveryTarget } from '../../activities/delivery-activities';
import { delayAfterAttempt } from '../../src/domain/webhooks/retry-schedule';
import { workflowBundle } from '../../src/temporal/worker';
import { attemptCollected } from '../../workflows/attempt-collected';
import { deliveryWorkflowV2 } from '../../workflows/delivery';
import { registerSearchAttributes } from './search-attributes';

/** A time-skipping Temporal test server with our search attributes registered. */
export async function startTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: process.env.TEMPORAL_TEST_SERVER_PATH as string } },
  });
  await registerSearchAttributes(env);
  return env;
}

export interface ScenarioRun {
  result: unknown;
  calls: Array<{ attempt: number; atMs: number; mayRepeat: boolean | undefined }>;
  cancelled: DeliveryTarget[];
  workflowId: string;
}

/**
 * Runs the real delivery workflow on the test server with fake activities whose outcome per
 * attempt is `outcomes(attempt)`. Mocked activities are what make this a unit test of the
 * workflow's logic; the real activities are covered by the integration tests.
 */
export async function runDeliveryScenario(
  env: TestWorkflowEnvironment,
  outcomes: (attempt: number) => AttemptOutcome['status'],
  /** handOffFirst: the first attempt is handed off (activities/attempt-hand-off.ts) and its outcome collected. */
  /**
   * handedOffSignal (with handOffFirst, workflows that collect by signal): what the process tells the
   * workflow. `outcome` (default) signals the attempt's outcome before the hand-off's task completes,
   * `no-outcome` signals that it failed unrecorded, `never` sends nothing (the process died).
   */
  /** delays: the delay an attempt's decision carries (default: the schedule's). */
  options: { cancelAfterAttempt?: number; handOffFirst?: boolean; handedOffSignal?: 'outcome' | 'no-outcome' | 'never'; delays?: (attempt: number) => number } = {},
): Promise<ScenarioRun> {
  const calls: ScenarioRun['calls'] = [];
  const cancelled: DeliveryTarget[] = [];
  const taskQueue = `scenario-${Math.random().toString(36).slice(2)}`;
  const workflowId = `delivery-1-${taskQueue}`;
  let onAttempt: (attempt: number) => void = () => undefined;
  const outcomeOf = (attempt: number): AttemptOutcome => {
    const status = outcomes(attempt);
    const nextDelayMs = status === 'retrying' ? (options.delays?.(attempt) ?? delayAfterAttempt(attempt)) : null;
    return { status, nextDelayMs, statusCode: 500 } as AttemptOutcome;
  };
  const activities: DeliveryActivities = {
    async attemptDelivery(a: AttemptInput) {
      calls.push({ attempt: a.attempt, atMs: await env.currentTimeMs(), mayRepeat: a.mayRepeat });
      if (options.handOffFirst && a.attempt === 1 && a.handOffAfterMs !== undefined) {
        const signal = options.handedOffSignal ?? 'outcome';
        if (a.collectBy === 'signal' && signal !== 'never') {
          // Sent before this task completes: deterministic on the time-skipping server, which would
          // otherwise skip past the workflow's wait before a signal sent a moment later arrived.
          if (signal === 'outcome') onAttempt(a.attempt);
          const outcome = signal === 'outcome' ? outcomeOf(a.attempt) : undefined;
          await env.client.workflow.getHandle(workflowId).signal(attemptCollected, { round: a.round, attempt: a.attempt, outcome });
        }
        return { status: 'handed-off' as const, collectOn: taskQueue };
      }
      onAttempt(a.attempt);
      return outcomeOf(a.attempt);
    },
    async collectAttempt(a: AttemptInput) {
      onAttempt(a.attempt);
      return outcomeOf(a.attempt);
    },
    async cancelDelivery(t: DeliveryTarget) {
      cancelled.push(t);
    },
  };
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: await workflowBundle(), activities });
  const result = await worker.runUntil(async () => {
    const handle = await env.client.workflow.start(deliveryWorkflowV2, {
      taskQueue,
      workflowId,
      args: [{ eventId: 1, endpointId: 'ep_test', accountId: 'acct_test', round: 1, type: 'order.created', timestamp: 1_795_000_000, body: '{"id":1,"type":"order.created","data":{},"timestamp":1795000000}' }],
    });
    if (options.cancelAfterAttempt !== undefined) {
      const target = options.cancelAfterAttempt;
      onAttempt = (attempt) => {
        if (attempt === target) void handle.cancel();
      };
    }
    return handle.result().catch((err: unknown) => ({ error: (err as Error).name, cause: (err as { cause?: Error }).cause?.name }));
  });
  return { result, calls, cancelled, workflowId };
}

import { WorkflowUpdateFailedError } from '@temporalio/client';
import { DELIVERY_TASK_TIMEOUT_MS } from '../../src/domain/webhooks/first-attempt-budget';
import { runDeliveryScenario, timeSkippingEnv } from '../support/workflow-harness';

/** A first attempt handed off by its local budget (activities/attempt-hand-off.ts), on the time-skipping server. */
describe('delivery workflow hand-off (time-skipping)', () => {
  const env = timeSkippingEnv();

  const historyOf = async (workflowId: string) => (await env().client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];

  it('gives the first local attempt a budget and is told the handed-off outcome by an update', async () => {
    const { result, calls, workflowId } = await runDeliveryScenario(env(), (a) => (a === 2 ? 'succeeded' : 'retrying'), { handOffFirst: true });
    expect(result).toEqual({ status: 'succeeded', attempts: 2 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2]);
    const history = await historyOf(workflowId);
    const scheduled = history.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes!.activityType?.name);
    // Attempt 2 (a retry) is the only activity task.
    expect(scheduled).toEqual(['attemptDelivery']);
    expect(history.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes).map((e) => e.workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest?.input?.name)).toEqual(['attemptOutcome']);
    expect(history.filter((e) => e.workflowExecutionSignaledEventAttributes)).toEqual([]);
  });

  it.each([
    ['a delivery run (45 s task time-out)', DELIVERY_TASK_TIMEOUT_MS, 34_000],
    ["a run started with Temporal's 10 s default", undefined, 6_000],
  ])('asks the first attempt of %s to keep its task up to what that time-out allows, and retries to hold nothing', async (_case, workflowTaskTimeoutMs, held) => {
    const { calls } = await runDeliveryScenario(env(), (a) => (a === 2 ? 'succeeded' : 'retrying'), { workflowTaskTimeoutMs });
    expect(calls.map((c) => [c.attempt, c.holdUpToMs])).toEqual([
      [1, held],
      [2, undefined],
    ]);
  });

  it('runs the retry schedule from the reported outcome: a handed-off failure waits 1 s for attempt 2', async () => {
    const { calls } = await runDeliveryScenario(env(), (a) => (a === 2 ? 'succeeded' : 'retrying'), { handOffFirst: true });
    expect((calls[1].atMs - calls[0].atMs) / 1000).toBeGreaterThanOrEqual(1);
  });

  // The process is gone (no report: the 45 s wait runs out), or says the attempt failed before its record (made again at once).
  it.each([
    ['never tells (gone): after the 45 s wait', 'never', (s: number) => s >= 45],
    ['tells it failed before its record: at once', 'no-outcome', (s: number) => s < 45],
  ] as const)('makes the attempt again, reading its record first, when its process %s', async (_case, handedOffSignal, waitedOk) => {
    const { result, calls } = await runDeliveryScenario(env(), () => 'succeeded', { handOffFirst: true, handedOffSignal });
    expect(result).toEqual({ status: 'succeeded', attempts: 1 });
    expect(calls.map((c) => [c.attempt, c.mayRepeat])).toEqual([
      [1, false],
      [1, true],
    ]);
    expect(waitedOk((calls[1].atMs - calls[0].atMs) / 1000)).toBe(true);
  });

  it('rejects a report it does not wait for (another attempt) and writes nothing for it: the 45 s wait then runs out', async () => {
    const { result, calls, workflowId, reportError } = await runDeliveryScenario(env(), () => 'succeeded', { handOffFirst: true, handedOffSignal: 'stray' });
    expect(reportError).toBeInstanceOf(WorkflowUpdateFailedError);
    expect(result).toEqual({ status: 'succeeded', attempts: 1 });
    expect(calls.map((c) => [c.attempt, c.mayRepeat])).toEqual([
      [1, false],
      [1, true],
    ]);
    const history = await historyOf(workflowId);
    expect(history.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes || e.workflowExecutionUpdateRejectedEventAttributes)).toEqual([]);
  });
});

import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { runDeliveryScenario, startTimeSkippingEnv } from '../support/workflow-harness';

/** A first attempt handed off by its local budget (activities/attempt-hand-off.ts), on the time-skipping server. */
describe('delivery workflow hand-off (time-skipping)', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    env = await startTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('gives the first local attempt a budget, and takes a handed-off outcome from a regular activity on the task queue it names', async () => {
    const { result, calls, workflowId } = await runDeliveryScenario(env, (a) => (a === 2 ? 'succeeded' : 'retrying'), { handOffFirst: true });
    expect(result).toEqual({ status: 'succeeded', attempts: 2 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2]);
    const history = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const scheduled = history.filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes!.activityType?.name);
    // Attempt 1's outcome is collected; attempt 2 (a retry) is a regular attempt.
    expect(scheduled).toEqual(['collectAttempt', 'attemptDelivery']);
  });

  it('runs the retry schedule from the collected outcome: a handed-off failure waits 1 s for attempt 2', async () => {
    const { calls } = await runDeliveryScenario(env, (a) => (a === 2 ? 'succeeded' : 'retrying'), { handOffFirst: true });
    expect((calls[1].atMs - calls[0].atMs) / 1000).toBeGreaterThanOrEqual(1);
  });
});

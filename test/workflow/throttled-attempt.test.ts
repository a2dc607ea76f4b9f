import { runDeliveryScenario, timeSkippingEnv } from '../support/workflow-harness';

/** An attempt that finds its account's places taken (AttemptThrottled), on the time-skipping server. */
describe('delivery workflow: a throttled first attempt', () => {
  const env = timeSkippingEnv();

  it('waits for its place on a workflow timer, ending its task each time, not inside the task', async () => {
    const { result, calls, workflowId } = await runDeliveryScenario(env(), () => 'succeeded', { throttledFirst: 2 });
    expect(result).toEqual({ status: 'succeeded', attempts: 1 });
    const history = (await env().client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    expect(history.filter((e) => e.timerStartedEventAttributes)).toHaveLength(2);
    expect(history.filter((e) => e.workflowTaskCompletedEventAttributes).length).toBeGreaterThanOrEqual(3);
    // Waiting for a place is not an attempt: the same attempt 1 is made once a place is free.
    expect(calls.map((c) => c.attempt)).toEqual([1, 1, 1]);
  });
});

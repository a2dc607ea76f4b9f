import { MAX_ATTEMPTS } from '../../src/domain/webhooks/retry-schedule';
import { defaultPayloadConverter } from '@temporalio/common';
import { retryWaits } from '../support/delivery-workflows';
import { failUntilLast, runDeliveryScenario, timeSkippingEnv } from '../support/workflow-harness';

/**
 * The retry schedule, proven on Temporal's time-skipping test server: the workflow's timers
 * are the schedule, so 26 h of retries run in seconds.
 */
describe('delivery workflow schedule (time-skipping)', () => {
  const env = timeSkippingEnv();

  it('makes 8 attempts at 0, 1, 6, 36, 336, 2136, 9336 and 95736 s when every attempt fails', async () => {
    const { result, calls, workflowId } = await runDeliveryScenario(env(), failUntilLast);
    expect(result).toEqual({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // The run's timers are the delays; each counts from the end of the previous attempt, so no attempt comes before its offset.
    expect(await retryWaits(env().client, workflowId)).toEqual([1, 5, 30, 300, 1800, 7200, 86400].map((s) => s * 1000));
    const expected = [0, 1, 6, 36, 336, 2136, 9336, 95736];
    calls.forEach((call, i) => expect((call.atMs - calls[0].atMs) / 1000).toBeGreaterThanOrEqual(expected[i]));
  });

  it('names each timer in the Temporal UI as people read it: "retry 6 after 30 min"', async () => {
    const { workflowId } = await runDeliveryScenario(env(), failUntilLast);
    const history = await env().client.workflow.getHandle(workflowId).fetchHistory();
    const summaries = (history.events ?? [])
      .filter((e) => e.timerStartedEventAttributes)
      .map((e) => defaultPayloadConverter.fromPayload(e.userMetadata!.summary! as never));
    expect(summaries).toEqual([
      'retry 2 after 1 s',
      'retry 3 after 5 s',
      'retry 4 after 30 s',
      'retry 5 after 5 min',
      'retry 6 after 30 min',
      'retry 7 after 2 h',
      'retry 8 after 24 h',
    ]);
  });

  it('makes the first attempt as a local activity (a marker in the history) and retries as regular activities', async () => {
    const { workflowId } = await runDeliveryScenario(env(), (attempt) => (attempt === 3 ? 'succeeded' : 'retrying'));
    const events = (await env().client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    expect(events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')).toHaveLength(1);
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes)).toHaveLength(2);
  });

  it("tells the first attempt, in the run's first workflow task, that it cannot have been made before", async () => {
    const { calls } = await runDeliveryScenario(env(), (attempt) => (attempt === 2 ? 'succeeded' : 'retrying'));
    expect(calls.map((c) => [c.attempt, c.mayRepeat])).toEqual([
      [1, false],
      [2, undefined],
    ]);
  });

  it('sleeps for the delay its attempt decided, and computes none of its own', async () => {
    const { result, calls, workflowId } = await runDeliveryScenario(env(), (attempt) => (attempt === 2 ? 'succeeded' : 'retrying'), { delays: () => 7_000 });
    expect(result).toEqual({ status: 'succeeded', attempts: 2 });
    expect(await retryWaits(env().client, workflowId)).toEqual([7_000]);
    expect(calls[1]!.atMs - calls[0]!.atMs).toBeGreaterThanOrEqual(7_000);
  });

  it('stops retrying after the attempt that succeeds', async () => {
    const { result, calls } = await runDeliveryScenario(env(), (attempt) => (attempt === 3 ? 'succeeded' : 'retrying'));
    expect(result).toEqual({ status: 'succeeded', attempts: 3 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
  });

  it('makes exactly one attempt when the first succeeds', async () => {
    const { result, calls } = await runDeliveryScenario(env(), () => 'succeeded');
    expect(result).toEqual({ status: 'succeeded', attempts: 1 });
    expect(calls).toHaveLength(1);
  });

  it('ends cancelled without further attempts when an attempt finds the endpoint gone', async () => {
    const { result, calls } = await runDeliveryScenario(env(), (attempt) => (attempt === 2 ? 'cancelled' : 'retrying'));
    expect(result).toEqual({ status: 'cancelled', attempts: 1 });
    expect(calls).toHaveLength(2);
  });

  it('finishes the attempt in flight, then records the delivery cancelled when the workflow is cancelled', async () => {
    const { result, calls, cancelled } = await runDeliveryScenario(env(), () => 'retrying', { cancelAfterAttempt: 2 });
    expect(result).toEqual({ error: 'WorkflowFailedError', cause: 'CancelledFailure' });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2]);
    expect(cancelled).toHaveLength(1);
  });
});

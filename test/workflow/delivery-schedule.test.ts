import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { AttemptOutcome } from '../../activities/delivery-activities';
import { delayAfterAttempt, MAX_ATTEMPTS } from '../../src/domain/webhooks/retry-schedule';
import { runDeliveryScenario, startTimeSkippingEnv } from '../support/workflow-harness';

/**
 * The retry schedule, proven on Temporal's time-skipping test server: the workflow's timers
 * are the schedule, so 26 h of retries run in seconds.
 */
describe('delivery workflow schedule (time-skipping)', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    env = await startTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  const failUntilLast = (attempt: number): AttemptOutcome['status'] => (delayAfterAttempt(attempt) === null ? 'failed' : 'retrying');

  it('makes 8 attempts at 0, 1, 6, 36, 336, 2136, 9336 and 95736 s when every attempt fails', async () => {
    const { result, calls } = await runDeliveryScenario(env, failUntilLast);
    expect(result).toEqual({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const expected = [0, 1, 6, 36, 336, 2136, 9336, 95736];
    calls.forEach((call, i) => {
      const offset = (call.atMs - calls[0].atMs) / 1000;
      // Each delay counts from the end of the previous attempt: only the attempts' own (real) durations add.
      expect(offset).toBeGreaterThanOrEqual(expected[i]);
      expect(offset).toBeLessThan(expected[i] + 0.5 * (i + 1));
    });
  });

  it('stops retrying after the attempt that succeeds', async () => {
    const { result, calls } = await runDeliveryScenario(env, (attempt) => (attempt === 3 ? 'succeeded' : 'retrying'));
    expect(result).toEqual({ status: 'succeeded', attempts: 3 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
  });

  it('makes exactly one attempt when the first succeeds', async () => {
    const { result, calls } = await runDeliveryScenario(env, () => 'succeeded');
    expect(result).toEqual({ status: 'succeeded', attempts: 1 });
    expect(calls).toHaveLength(1);
  });

  it('ends cancelled without further attempts when an attempt finds the endpoint gone', async () => {
    const { result, calls } = await runDeliveryScenario(env, (attempt) => (attempt === 2 ? 'cancelled' : 'retrying'));
    expect(result).toEqual({ status: 'cancelled', attempts: 1 });
    expect(calls).toHaveLength(2);
  });

  it('finishes the attempt in flight, then records the delivery cancelled when the workflow is cancelled', async () => {
    const { result, calls, cancelled } = await runDeliveryScenario(env, () => 'retrying', { cancelAfterAttempt: 2 });
    expect(result).toEqual({ error: 'WorkflowFailedError', cause: 'CancelledFailure' });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2]);
    expect(cancelled).toHaveLength(1);
  });
});

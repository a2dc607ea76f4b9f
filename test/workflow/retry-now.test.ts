import { WorkflowUpdateFailedError } from '@temporalio/client';
import { MAX_ATTEMPTS } from '../../src/domain/webhooks/retry-schedule';
import { retryWaits, timerEnds } from '../support/delivery-workflows';
import { failUntilLast, runDeliveryScenario, timeSkippingEnv } from '../support/workflow-harness';

/** Retry now, on Temporal's time-skipping test server: the wait before the next attempt ends at once. */
describe('delivery workflow retry now (time-skipping)', () => {
  const env = timeSkippingEnv();
  const timerEvents = (workflowId: string) => timerEnds(env().client, workflowId);

  it('makes the next attempt, numbered n+1, without waiting for its timer, and answers its number', async () => {
    const { calls, retryNow, workflowId } = await runDeliveryScenario(env(), (attempt) => (attempt === 3 ? 'succeeded' : 'retrying'), {
      retryNow: { during: 'wait', attempt: 3 },
    });
    expect(retryNow).toEqual({ result: { attempt: 3 } });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    // The 5 s timer before attempt 3 was cancelled, not fired: attempt 3 came before it could have.
    expect(await timerEvents(workflowId)).toEqual({ fired: 1, canceled: 1 });
  });

  it('goes on with the schedule after a woken attempt fails: the waits are unchanged and attempt 8 is still the last', async () => {
    const { result, calls, workflowId } = await runDeliveryScenario(env(), failUntilLast, { retryNow: { during: 'wait', attempt: 3 } });
    expect(result).toEqual({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await retryWaits(env().client, workflowId)).toEqual([1, 5, 30, 300, 1800, 7200, 86400].map((s) => s * 1000));
    expect(await timerEvents(workflowId)).toEqual({ fired: 6, canceled: 1 });
  });

  it('refuses retry now while an attempt is in flight, and the delivery goes on as it was', async () => {
    const { result, calls, retryNow, workflowId } = await runDeliveryScenario(env(), (attempt) => (attempt === 3 ? 'succeeded' : 'retrying'), {
      retryNow: { during: 'attempt', attempt: 2 },
    });
    expect(retryNow?.error).toBeInstanceOf(WorkflowUpdateFailedError);
    expect(result).toEqual({ status: 'succeeded', attempts: 3 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(await timerEvents(workflowId)).toEqual({ fired: 2, canceled: 0 });
  });
});

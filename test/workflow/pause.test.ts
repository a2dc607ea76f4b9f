import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { AttemptOutcome } from '../../activities/delivery-activities';
import { PAUSED_RECHECK_MS } from '../../src/domain/webhooks/endpoint-pause';
import { deliveryStatusUpserts, pausedWaits, retryWaits, timerEnds } from '../support/delivery-workflows';
import { runDeliveryScenario, timeSkippingEnv } from '../support/workflow-harness';

/**
 * A delivery whose endpoint is paused, on Temporal's time-skipping test server: an attempt that
 * answers `paused` is no attempt. The run waits for the resume signal (or its fallback timer) and
 * makes the same attempt number again; the schedule is untouched.
 */
describe('delivery workflow on a paused endpoint (time-skipping)', () => {
  const env = timeSkippingEnv();

  const succeedsOnSecond = (attempt: number): AttemptOutcome['status'] => (attempt === 2 ? 'succeeded' : 'retrying');

  it('waits after a paused attempt until the resume signal, then makes the same attempt number again', async () => {
    const { result, calls, workflowId } = await runDeliveryScenario(env(), succeedsOnSecond, { paused: { attempt: 2, then: 'signal' } });
    expect(result).toEqual({ status: 'succeeded', attempts: 2 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 2]);
    // One wait for the resume, ended by the signal (its timer cancelled), besides the schedule's 1 s before attempt 2.
    expect(await pausedWaits(env().client, workflowId)).toEqual([PAUSED_RECHECK_MS]);
    expect(await retryWaits(env().client, workflowId)).toEqual([1000]);
    expect(await timerEnds(env().client, workflowId)).toEqual({ fired: 1, canceled: 1 });
    expect(await deliveryStatusUpserts(env().client, workflowId)).toEqual(['retrying', 'paused', 'succeeded']);
  });

  it('goes on with the schedule after the paused attempt: the next wait is the one after that attempt number', async () => {
    const { result, calls, workflowId } = await runDeliveryScenario(env(), (attempt) => (attempt === 3 ? 'succeeded' : 'retrying'), {
      paused: { attempt: 2, then: 'signal' },
    });
    expect(result).toEqual({ status: 'succeeded', attempts: 3 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 2, 3]);
    expect(await retryWaits(env().client, workflowId)).toEqual([1000, 5000]);
  });

  it('keeps a resume signal that comes while the paused attempt is in flight: the wait after it ends at once', async () => {
    const { result, calls } = await runDeliveryScenario(env(), succeedsOnSecond, { paused: { attempt: 2, then: 'signal-in-flight' } });
    expect(result).toEqual({ status: 'succeeded', attempts: 2 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 2]);
    // Not the fallback: the attempt was made again without waiting its hour.
    expect(calls[2].atMs - calls[1].atMs).toBeLessThan(PAUSED_RECHECK_MS);
  });

  it('looks again after the fallback timer when no signal comes, and waits again while the endpoint is still paused', async () => {
    const { result, calls, workflowId } = await runDeliveryScenario(env(), () => 'succeeded', { paused: { attempt: 1, times: 2, then: 'timer' } });
    expect(result).toEqual({ status: 'succeeded', attempts: 1 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 1, 1]);
    expect(await pausedWaits(env().client, workflowId)).toEqual([PAUSED_RECHECK_MS, PAUSED_RECHECK_MS]);
    expect(await timerEnds(env().client, workflowId)).toEqual({ fired: 2, canceled: 0 });
    // Waiting again is still the same pause: the status is set once.
    expect(await deliveryStatusUpserts(env().client, workflowId)).toEqual(['paused', 'succeeded']);
  });

  it('makes the attempt after a pause as a regular activity (a resume wakes many at once: none holds a workflow task)', async () => {
    const { workflowId } = await runDeliveryScenario(env(), () => 'succeeded', { paused: { attempt: 1, then: 'signal' } });
    const events = (await env().client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    expect(events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')).toHaveLength(1);
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes)).toHaveLength(1);
  });

  it('ends cancelled when cancelled while it waits for the resume, with no further attempt', async () => {
    const { result, calls, cancelled } = await runDeliveryScenario(env(), () => 'succeeded', { paused: { attempt: 1, then: 'cancel' } });
    expect(result).toEqual({ error: 'WorkflowFailedError', cause: 'CancelledFailure' });
    expect(calls.map((c) => c.attempt)).toEqual([1]);
    expect(cancelled).toHaveLength(1);
  });

  it('refuses retry now while it waits for the resume: nothing waits for a retry', async () => {
    const { result, calls, retryNow } = await runDeliveryScenario(env(), succeedsOnSecond, { paused: { attempt: 2, then: 'signal', retryNowFirst: true } });
    expect(retryNow?.error).toBeInstanceOf(WorkflowUpdateFailedError);
    expect(result).toEqual({ status: 'succeeded', attempts: 2 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 2]);
  });
});

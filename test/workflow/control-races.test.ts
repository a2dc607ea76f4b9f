import { Worker } from '@temporalio/worker';
import type { AttemptInput, AttemptOutcome, DeliveryActivities, DeliveryTarget } from '../../activities/delivery-activities';
import { delayAfterAttempt } from '../../src/domain/webhooks/retry-schedule';
import { workflowBundle } from '../../src/temporal/worker';
import { deliveryWorkflow } from '../../workflows/delivery';
import { retryNow } from '../../workflows/retry-now';
import { retryWaits, timerEnds, waitsBefore } from '../support/delivery-workflows';
import { timeSkippingEnv } from '../support/workflow-harness';

/**
 * Control of a delivery racing its own run, on Temporal's time-skipping test server, each side held
 * at the racy point: retry now arriving as the timer of the next attempt fires, and cancel arriving
 * while an attempt that then succeeds is in flight.
 */
describe('delivery workflow control races (time-skipping)', () => {
  const env = timeSkippingEnv();

  const target: DeliveryTarget = { eventId: 1, endpointId: 'ep_race', accountId: 'acct_test', round: 1, type: 'order.created', timestamp: 1_795_000_000, body: '{}' };
  const outcome = (status: AttemptOutcome['status'], attempt: number): AttemptOutcome =>
    ({ status, nextDelayMs: status === 'retrying' ? delayAfterAttempt(attempt) : null, statusCode: status === 'succeeded' ? 200 : 500 }) as AttemptOutcome;

  /** Fake activities: each attempt is counted, then answered by `answer` (which may hold it). */
  function activities(answer: (attempt: number) => Promise<AttemptOutcome>) {
    const attempts: number[] = [];
    const cancelled: DeliveryTarget[] = [];
    const acts: DeliveryActivities = {
      async attemptDelivery(a: AttemptInput) {
        attempts.push(a.attempt);
        return answer(a.attempt);
      },
      async cancelDelivery(t: DeliveryTarget) {
        cancelled.push(t);
      },
    };
    return { acts, attempts, cancelled };
  }

  // No sticky queue: a task after a worker stopped goes to the next worker at once, not after the sticky time-out.
  const newWorker = async (taskQueue: string, acts: DeliveryActivities) =>
    Worker.create({ connection: env().nativeConnection, taskQueue, workflowBundle: await workflowBundle(), activities: acts, maxCachedWorkflows: 0 });

  /** The history's events of one kind, in order, by their attribute name. */
  const eventKinds = async (workflowId: string) =>
    ((await env().client.workflow.getHandle(workflowId).fetchHistory()).events ?? []).map((e) => Object.keys(e).find((k) => k.endsWith('EventAttributes') && (e as Record<string, unknown>)[k]) ?? '');

  it('makes exactly one attempt n+1 when retry now arrives as its timer fires, in the same workflow task, and the schedule goes on', async () => {
    const taskQueue = `race-${Math.random().toString(36).slice(2)}`;
    const workflowId = `delivery-1-${taskQueue}`;
    const { acts, attempts } = activities(async (attempt) => outcome(attempt === 5 ? 'succeeded' : 'retrying', attempt));
    const handle = await env().client.workflow.start(deliveryWorkflow, { taskQueue, workflowId, args: [target] });

    // Attempts 1 and 2 fail; the run then waits on its 5 s timer before attempt 3. Its worker stops there.
    await (await newWorker(taskQueue, acts)).runUntil(async () => {
      while (!(await waitsBefore(env().client, workflowId, 3))) await new Promise((r) => setTimeout(r, 20));
    });
    // With no worker, the retry now reaches the server first (the test server then schedules a workflow
    // task for it, in the history); then its timer fires (time is skipped only when asked). The next
    // workflow task carries both.
    const tasksScheduled = async () => (await eventKinds(workflowId)).filter((k) => k === 'workflowTaskScheduledEventAttributes').length;
    const before = await tasksScheduled();
    const woken = handle.executeUpdate(retryNow).then((result) => ({ result }), (error: unknown) => ({ error }));
    while ((await tasksScheduled()) === before) await new Promise((r) => setTimeout(r, 20));
    await env().sleep(delayAfterAttempt(2) as number);
    expect(await timerEnds(env().client, workflowId)).toEqual({ fired: 2, canceled: 0 });
    const second = await newWorker(taskQueue, acts);
    const result = await second.runUntil(handle.result());
    expect(result).toEqual({ status: 'succeeded', attempts: 5 });
    expect(attempts).toEqual([1, 2, 3, 4, 5]);
    // The timer and the update were taken in one task: it was the race, not one after the other.
    const kinds = await eventKinds(workflowId);
    const fired = kinds.indexOf('timerFiredEventAttributes', kinds.indexOf('timerFiredEventAttributes') + 1);
    const thatTask = kinds.slice(fired, kinds.indexOf('activityTaskScheduledEventAttributes', fired));
    expect(thatTask.filter((k) => k === 'workflowTaskCompletedEventAttributes')).toHaveLength(1);
    expect(thatTask).toContain('workflowExecutionUpdateAcceptedEventAttributes');
    // Woken for attempt 3, which was made once; the waits after it are the schedule's.
    expect(await woken).toEqual({ result: { attempt: 3 } });
    expect(await retryWaits(env().client, workflowId)).toEqual([1000, 5000, 30_000, 300_000]);
  });

  it('ends succeeded, its attempt recorded and nothing cancelled, when cancel arrives while that attempt is in flight', async () => {
    const taskQueue = `race-${Math.random().toString(36).slice(2)}`;
    const workflowId = `delivery-1-${taskQueue}`;
    // Attempt 2 is held in flight until the cancel request is on the server; then its POST succeeds.
    const { acts, attempts, cancelled } = activities(async (attempt) => {
      if (attempt === 2) await env().client.workflow.getHandle(workflowId).cancel();
      return outcome(attempt === 2 ? 'succeeded' : 'retrying', attempt);
    });
    const handle = await env().client.workflow.start(deliveryWorkflow, { taskQueue, workflowId, args: [target] });
    const result = await (await newWorker(taskQueue, acts)).runUntil(handle.result());

    expect(result).toEqual({ status: 'succeeded', attempts: 2 });
    expect(attempts).toEqual([1, 2]);
    expect(cancelled).toEqual([]);
    const kinds = await eventKinds(workflowId);
    // The cancel request reached the run before the attempt's result did.
    expect(kinds.indexOf('workflowExecutionCancelRequestedEventAttributes')).toBeLessThan(kinds.lastIndexOf('activityTaskCompletedEventAttributes'));
    expect(kinds).toContain('workflowExecutionCompletedEventAttributes');
  });
});

import type { AttemptOutcome } from '../../activities/delivery-activities';
import { fifoRecheckMs } from '../../src/domain/webhooks/fifo-order';
import { deliveryStatusUpserts, queuedWaits, timerEnds } from '../support/delivery-workflows';
import { runDeliveryScenario, timeSkippingEnv } from '../support/workflow-harness';

/**
 * A delivery to a FIFO endpoint whose turn has not come, on Temporal's time-skipping test server:
 * a first attempt that answers `queued` is no attempt. The run waits, holding no task or slot, for
 * the `fifoTurn` signal (or a re-look after its fallback timer) and makes the same attempt again.
 */
describe('delivery workflow waiting its FIFO turn (time-skipping)', () => {
  const env = timeSkippingEnv();
  const succeeds = (): AttemptOutcome['status'] => 'succeeded';

  it('tells every attempt that the run waits turns, so an endpoint that is FIFO can answer queued', async () => {
    const { calls, result } = await runDeliveryScenario(env(), (attempt) => (attempt === 2 ? 'succeeded' : 'retrying'));
    expect(result).toEqual({ status: 'succeeded', attempts: 2 });
    expect(calls.map((c) => [c.attempt, c.queued])).toEqual([
      [1, true],
      [2, true],
    ]);
  });

  it('waits after a queued first attempt until the turn signal, then makes attempt 1 again', async () => {
    const { result, calls, workflowId } = await runDeliveryScenario(env(), succeeds, { queued: { then: 'signal' } });
    expect(result).toEqual({ status: 'succeeded', attempts: 1 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 1]);
    expect(await queuedWaits(env().client, workflowId)).toEqual([fifoRecheckMs(0)]);
    expect(await timerEnds(env().client, workflowId)).toEqual({ fired: 0, canceled: 1 });
    expect(await deliveryStatusUpserts(env().client, workflowId)).toEqual(['queued', 'succeeded']);
  });

  it('keeps a turn signal that comes while its look at the queue is in flight: the wait after it ends at once', async () => {
    const { result, calls, workflowId } = await runDeliveryScenario(env(), succeeds, { queued: { then: 'signal-in-flight' } });
    expect(result).toEqual({ status: 'succeeded', attempts: 1 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 1]);
    // Not stranded until the fallback: no timer fired.
    expect((await timerEnds(env().client, workflowId)).fired).toBe(0);
  });

  it('looks again after its fallback timer when no signal comes, each wait longer than the one before', async () => {
    const { result, calls, workflowId } = await runDeliveryScenario(env(), succeeds, { queued: { times: 3, then: 'timer' } });
    expect(result).toEqual({ status: 'succeeded', attempts: 1 });
    expect(calls.map((c) => c.attempt)).toEqual([1, 1, 1, 1]);
    expect(await queuedWaits(env().client, workflowId)).toEqual([fifoRecheckMs(0), fifoRecheckMs(1), fifoRecheckMs(2)]);
    expect(await deliveryStatusUpserts(env().client, workflowId)).toEqual(['queued', 'succeeded']);
  });

  it('ends cancelled when cancelled while it waits its turn, with no further attempt (the cancellation leaves its place)', async () => {
    const { result, calls, cancelled } = await runDeliveryScenario(env(), succeeds, { queued: { then: 'cancel' } });
    expect(result).toEqual({ error: 'WorkflowFailedError', cause: 'CancelledFailure' });
    expect(calls.map((c) => c.attempt)).toEqual([1]);
    expect(cancelled).toHaveLength(1);
  });
});

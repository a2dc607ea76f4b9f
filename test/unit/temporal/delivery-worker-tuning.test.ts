import { deliveryWorkerTuning } from '../../../src/temporal/worker';

describe('deliveryWorkerTuning', () => {
  it('gives a worker that takes eager starts fixed slots, no slot supplier in JavaScript (its reservation and the shutdown deadlock)', () => {
    const tuning = deliveryWorkerTuning(600, true);
    expect(tuning).not.toHaveProperty('tuner');
    expect(tuning).toMatchObject({ maxConcurrentWorkflowTaskExecutions: 1000, maxConcurrentLocalActivityExecutions: 1000, maxConcurrentActivityTaskExecutions: 200 });
  });

  it('gives a worker without eager starts the slots that poll only what it can start now', () => {
    const tuning = deliveryWorkerTuning(600, false);
    expect(tuning).toHaveProperty('tuner.workflowTaskSlotSupplier.type', 'custom');
    expect(tuning).toHaveProperty('tuner.localActivityTaskSlotSupplier.type', 'custom');
    expect(tuning).toHaveProperty('tuner.activityTaskSlotSupplier', { type: 'fixed-size', numSlots: 200 });
  });

  it('gives a worker without eager starts most of its workflow-task polls on the normal queue, where every first task waits', () => {
    const tuning = deliveryWorkerTuning(600, false);
    const normalQueuePolls = (tuning.maxConcurrentWorkflowTaskPolls ?? 0) * (tuning.nonStickyToStickyPollRatio ?? 0);
    // The SDK's default gave two polls to the normal queue.
    expect(normalQueuePolls).toBeGreaterThanOrEqual(8);
  });
});

import type { SlotPermit, SlotReserveContext } from '@temporalio/worker';
import { WorkflowTaskSlots } from '../../../src/temporal/workflow-task-slots';

const ctx = (slotType: 'workflow' | 'local-activity'): SlotReserveContext => ({ slotType, taskQueue: 'deliveries', workerIdentity: 'w', workerBuildId: '', isSticky: false });
const workflowInfo = { type: 'workflow' as const, workflowType: 'deliveryWorkflow', isSticky: false };
const localInfo = { type: 'local-activity' as const, activityType: 'attemptDelivery' };

/** Resolves to the permit if granted within a turn of the event loop, else to 'waiting'. */
async function settled(promise: Promise<SlotPermit>): Promise<SlotPermit | 'waiting'> {
  return Promise.race([promise, new Promise<'waiting'>((resolve) => setImmediate(() => resolve('waiting')))]);
}

function setup(options = { max: 10, ahead: 2 }) {
  const slots = new WorkflowTaskSlots(options);
  const wf = slots.workflowTaskSlotSupplier;
  const la = slots.localActivityTaskSlotSupplier;
  const signal = new AbortController().signal;
  const pollAndUse = async () => {
    const permit = await wf.reserveSlot(ctx('workflow'), signal);
    wf.markSlotUsed({ permit, slotInfo: workflowInfo });
    return permit;
  };
  const startLocal = async () => {
    const permit = await la.reserveSlot(ctx('local-activity'), signal);
    la.markSlotUsed({ permit, slotInfo: localInfo });
    return permit;
  };
  return { slots, wf, la, signal, pollAndUse, startLocal };
}

describe('workflow-task slots', () => {
  it('stops polling once `ahead` tasks are busy with something other than a POST', async () => {
    const { wf, signal, pollAndUse } = setup();
    await pollAndUse();
    await pollAndUse();
    expect(await settled(wf.reserveSlot(ctx('workflow'), signal))).toBe('waiting');
  });

  it('polls again when a busy task ends', async () => {
    const { wf, signal, pollAndUse } = setup();
    const first = await pollAndUse();
    await pollAndUse();
    const next = wf.reserveSlot(ctx('workflow'), signal);
    expect(await settled(next)).toBe('waiting');
    wf.releaseSlot({ permit: first, slotInfo: workflowInfo });
    expect(await settled(next)).not.toBe('waiting');
  });

  it('does not count a task whose local activity (the POST) is running', async () => {
    const { wf, signal, pollAndUse, startLocal } = setup();
    await pollAndUse();
    await pollAndUse();
    const next = wf.reserveSlot(ctx('workflow'), signal);
    expect(await settled(next)).toBe('waiting');
    await startLocal();
    expect(await settled(next)).not.toBe('waiting');
  });

  it('counts the task again once its local activity ends', async () => {
    const { slots, la, pollAndUse, startLocal } = setup();
    await pollAndUse();
    const post = await startLocal();
    expect(slots.busy()).toBe(0);
    la.releaseSlot({ permit: post, slotInfo: localInfo });
    expect(slots.busy()).toBe(1);
  });

  it('does not count polls still waiting for a task as busy', async () => {
    const { slots, wf, signal } = setup();
    await wf.reserveSlot(ctx('workflow'), signal);
    await wf.reserveSlot(ctx('workflow'), signal);
    expect(slots.busy()).toBe(0);
    expect(await settled(wf.reserveSlot(ctx('workflow'), signal))).not.toBe('waiting');
  });

  it('never hands out more than `max` workflow slots, held POSTs included', async () => {
    const { wf, signal, pollAndUse, startLocal } = setup({ max: 3, ahead: 2 });
    for (let i = 0; i < 3; i++) {
      await pollAndUse();
      await startLocal();
    }
    expect(await settled(wf.reserveSlot(ctx('workflow'), signal))).toBe('waiting');
    expect(wf.tryReserveSlot(ctx('workflow'))).toBeNull();
  });

  it('grants an eager start whenever under `max`, however many tasks are busy', async () => {
    const { wf, pollAndUse } = setup();
    await pollAndUse();
    await pollAndUse();
    expect(wf.tryReserveSlot(ctx('workflow'))).not.toBeNull();
  });

  it('bounds local activities by `max`', async () => {
    const { la, signal, startLocal } = setup({ max: 1, ahead: 1 });
    const first = await startLocal();
    const next = la.reserveSlot(ctx('local-activity'), signal);
    expect(await settled(next)).toBe('waiting');
    expect(la.tryReserveSlot(ctx('local-activity'))).toBeNull();
    la.releaseSlot({ permit: first, slotInfo: localInfo });
    expect(await settled(next)).not.toBe('waiting');
  });

  it('rejects a waiting reservation with the abort reason when the SDK aborts it, and grants it to nobody', async () => {
    const { wf, pollAndUse } = setup({ max: 2, ahead: 2 });
    const first = await pollAndUse();
    await pollAndUse();
    const abort = new AbortController();
    const waiting = wf.reserveSlot(ctx('workflow'), abort.signal);
    const reason = new Error('poll no longer needed');
    abort.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    wf.releaseSlot({ permit: first, slotInfo: workflowInfo });
    expect(wf.tryReserveSlot(ctx('workflow'))).not.toBeNull();
  });

  it('releases a permit that was never used (a poll that timed out)', async () => {
    const { wf, signal } = setup({ max: 1, ahead: 1 });
    const permit = await wf.reserveSlot(ctx('workflow'), signal);
    wf.releaseSlot({ permit });
    expect(wf.tryReserveSlot(ctx('workflow'))).not.toBeNull();
  });
});

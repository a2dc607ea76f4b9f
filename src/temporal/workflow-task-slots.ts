import type { CustomSlotSupplier, LocalActivitySlotInfo, SlotInfo, SlotPermit, WorkflowSlotInfo } from '@temporalio/worker';
import { EventEmitter, once } from 'node:events';

/** Polls only while fewer than `ahead` tasks are busy but not on a POST: the rest waits in Temporal's queue, fair by account. */
export class WorkflowTaskSlots {
  private readonly workflowPermits = new Set<SlotPermit>();
  private readonly workflowUsed = new Set<SlotPermit>();
  private readonly localPermits = new Set<SlotPermit>();
  private readonly localRunning = new Set<SlotPermit>();
  /** Emits 'change' when a permit is used or released: every waiter checks again, in the order they came; those still not ready wait anew. */
  private readonly changes = new EventEmitter().setMaxListeners(0);

  constructor(private readonly options: { max: number; ahead: number }) {}

  /** Workflow tasks the worker holds that are busy with something other than a local activity. */
  busy(): number {
    return Math.max(0, this.workflowUsed.size - this.localRunning.size);
  }

  readonly workflowTaskSlotSupplier = this.supplier<WorkflowSlotInfo>(this.workflowPermits, this.workflowUsed, () => this.workflowPermits.size < this.options.max && this.busy() < this.options.ahead);

  readonly localActivityTaskSlotSupplier = this.supplier<LocalActivitySlotInfo>(this.localPermits, this.localRunning, () => this.localPermits.size < this.options.max);

  /** Permits into `permits` (at most `max` without waiting, else once `ready`); a used one also joins `used`. */
  private supplier<I extends SlotInfo>(permits: Set<SlotPermit>, used: Set<SlotPermit>, ready: () => boolean): CustomSlotSupplier<I> {
    return {
      type: 'custom',
      reserveSlot: (_ctx, abortSignal) => this.waitUntil(ready, permits, abortSignal),
      tryReserveSlot: () => (permits.size < this.options.max ? grant(permits) : null),
      markSlotUsed: ({ permit }) => {
        if (!permits.has(permit)) return;
        used.add(permit);
        // A local activity used means its task went on to its POST: another task may be polled now.
        this.changes.emit('change');
      },
      releaseSlot: ({ permit }) => {
        permits.delete(permit);
        used.delete(permit);
        this.changes.emit('change');
      },
    };
  }

  /** A permit into `permits` once `ready`; the SDK's abort rejects with its reason. */
  private async waitUntil(ready: () => boolean, permits: Set<SlotPermit>, abortSignal: AbortSignal): Promise<SlotPermit> {
    abortSignal.throwIfAborted();
    while (!ready()) {
      // once() rejects an abort with its own AbortError; the SDK's reason is what the caller gets.
      await once(this.changes, 'change', { signal: abortSignal }).catch(() => abortSignal.throwIfAborted());
    }
    return grant(permits);
  }
}

function grant(permits: Set<SlotPermit>): SlotPermit {
  const permit: SlotPermit = {};
  permits.add(permit);
  return permit;
}

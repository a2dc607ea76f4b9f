import type { CustomSlotSupplier, LocalActivitySlotInfo, SlotInfo, SlotPermit, WorkflowSlotInfo } from '@temporalio/worker';

/** Polls only while fewer than `ahead` tasks are busy but not on a POST: the rest waits in Temporal's queue, fair by account. */
export class WorkflowTaskSlots {
  private readonly workflowPermits = new Set<SlotPermit>();
  private readonly workflowUsed = new Set<SlotPermit>();
  private readonly localPermits = new Set<SlotPermit>();
  private readonly localRunning = new Set<SlotPermit>();
  private readonly waiting: Array<() => void> = [];

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
        this.wake();
      },
      releaseSlot: ({ permit }) => {
        permits.delete(permit);
        used.delete(permit);
        this.wake();
      },
    };
  }

  /** A permit into `permits` once `ready`, in the order the waiters came. */
  private waitUntil(ready: () => boolean, permits: Set<SlotPermit>, abortSignal: AbortSignal): Promise<SlotPermit> {
    if (abortSignal.aborted) return Promise.reject(abortSignal.reason);
    return new Promise<SlotPermit>((resolve, reject) => {
      const attempt = () => {
        if (!ready()) {
          this.waiting.push(attempt);
          return;
        }
        abortSignal.removeEventListener('abort', onAbort);
        resolve(grant(permits));
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(attempt);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(abortSignal.reason);
      };
      abortSignal.addEventListener('abort', onAbort, { once: true });
      attempt();
    });
  }

  /** Lets every waiter check again, in the order they came; those still not ready queue up anew. */
  private wake(): void {
    const now = this.waiting.splice(0);
    for (const attempt of now) attempt();
  }
}

function grant(permits: Set<SlotPermit>): SlotPermit {
  const permit: SlotPermit = {};
  permits.add(permit);
  return permit;
}

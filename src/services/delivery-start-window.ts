import { AdaptiveLimit, AdaptiveLimitTuning } from '../domain/flow-control/adaptive-limit';
import { addCount } from '../domain/flow-control/sliding-count';
import { recordStartWait, setStartWindowSize } from '../infra/metrics';

/**
 * A first attempt should begin within 0.5 s: far inside the workflow task's time-out, and what a quiet account
 * beside a flood waits. Short so work does not pile up in the worker (measured: a 2 s target gave less capacity).
 */
export const START_WINDOW_TUNING: Omit<AdaptiveLimitTuning, 'max'> = { min: 8, targetMs: 500, increase: 8, decrease: 0.75, intervalMs: 1_000 };

/** Without a worker, slots free on the start call's answer: the backlog waits in the outbox, where accounts take turns. */
export const START_CALL_TUNING: Omit<AdaptiveLimitTuning, 'max'> = { min: 2, targetMs: 250, increase: 2, decrease: 0.75, intervalMs: 1_000 };

/** A delivery whose workflow is started: its first attempt will ask for one of its account's places. */
export interface StartSlot {
  workflowId: string;
  accountId: string;
}

/**
 * At most `limit` started workflows (adaptive with `tuning`, up to `size`; 0: no window) wait for their first attempt. A
 * task past DELIVERY_TASK_TIMEOUT_MS is handed out again (its attempt made twice) and a deep backlog overflows the workflow
 * cache (measured: 52 workflows/s with 100–400 waiting, 36/s all at once): events wait in the durable outbox instead.
 */
export class DeliveryStartWindow {
  /** Workflow id → when its slot frees itself, and its account. Map order is start order, so the oldest is first. */
  private readonly waiting = new Map<string, { until: number; accountId: string }>();
  /** Per account, its workflows in `waiting`. */
  private readonly waitingPerAccount = new Map<string, number>();
  private readonly queue: Array<() => void> = [];
  /** Slots handed to waiters that have not resumed yet. */
  private reserved = 0;
  private expiryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly adaptive: AdaptiveLimit | undefined;

  constructor(
    private readonly size: number,
    private readonly expiryMs = 10_000,
    private readonly now: () => number = Date.now,
    /** The wait (start → first attempt, p90) the window aims at, and how it moves; max is `size`. */
    tuning?: Omit<AdaptiveLimitTuning, 'max'>,
    private readonly record: (waitMs: number) => void = recordStartWait,
  ) {
    this.adaptive = tuning && size > 0 ? new AdaptiveLimit({ ...tuning, max: size }, now) : undefined;
    if (size > 0) setStartWindowSize(this.limit);
  }

  get occupied(): number {
    return this.waiting.size;
  }

  private get taken(): number {
    return this.waiting.size + this.reserved;
  }

  get limit(): number {
    return this.adaptive?.value ?? this.size;
  }

  /**
   * The account's started workflows whose first attempt has not begun (on their way to its places), for at most the
   * expiry: a start whose attempt runs on another worker is released by none here. Counted without a window too.
   */
  waitingOf(accountId: string): number {
    this.expire();
    return this.waitingPerAccount.get(accountId) ?? 0;
  }

  /**
   * Taken before the start is sent (the first activity may begin before the call returns). `pick` runs only
   * then, so the accounts' turn is decided at the last moment; a null pick gives the slot back.
   */
  async take(pick: StartSlot | (() => StartSlot | null)): Promise<string | null> {
    const picked = typeof pick === 'function' ? pick : () => pick;
    if (this.closed) return picked()?.workflowId ?? null;
    this.expire();
    if (this.size <= 0) return this.hold(picked());
    // A freed slot is reserved for the longest waiter, not whoever asks next: no accepted event is overtaken again and again.
    if (this.queue.length > 0 || this.taken >= this.limit) {
      this.adaptive?.markFull();
      await new Promise<void>((resolve) => {
        this.queue.push(resolve);
        this.armExpiry();
      });
      if (this.closed) return picked()?.workflowId ?? null;
      this.reserved--;
    }
    const slot = picked();
    if (slot === null) this.wake();
    return this.hold(slot);
  }

  /** The workflow's first activity has started (or its start was not needed): the slot is free. */
  release(workflowId: string): void {
    const held = this.unhold(workflowId);
    if (held === undefined) return;
    this.measured(this.now() - (held.until - this.expiryMs));
    this.wake();
  }

  private hold(slot: StartSlot | null): string | null {
    if (slot === null) return null;
    // Re-inserted at the end: the map's order is expiry order, which expire() relies on.
    this.unhold(slot.workflowId);
    this.waiting.set(slot.workflowId, { until: this.now() + this.expiryMs, accountId: slot.accountId });
    addCount(this.waitingPerAccount, slot.accountId, 1);
    return slot.workflowId;
  }

  private unhold(workflowId: string): { until: number; accountId: string } | undefined {
    const held = this.waiting.get(workflowId);
    if (held === undefined) return undefined;
    this.waiting.delete(workflowId);
    addCount(this.waitingPerAccount, held.accountId, -1);
    return held;
  }

  /** Shutdown: whoever waits goes on, and the window admits everyone from now on. */
  close(): void {
    this.closed = true;
    clearTimeout(this.expiryTimer);
    this.waiting.clear();
    this.waitingPerAccount.clear();
    for (const wake of this.queue.splice(0)) wake();
  }

  private expire(): void {
    const now = this.now();
    for (const [id, { until }] of this.waiting) {
      if (until > now) break;
      this.unhold(id);
      // Ran elsewhere, or waited here the whole expiry: either way as long a wait as can be seen.
      this.measured(this.expiryMs);
    }
  }

  /** One start's wait; at the end of each interval the limit follows what was measured. */
  private measured(waitMs: number): void {
    this.record(waitMs);
    if (this.adaptive?.observe(waitMs)) {
      setStartWindowSize(this.limit);
      this.wake();
    }
  }

  private wake(): void {
    while (this.taken < this.limit && this.queue.length > 0) {
      this.reserved++;
      this.queue.shift()!();
    }
  }

  /** While someone waits, the oldest slot frees itself at its expiry even if nothing is released. */
  private armExpiry(): void {
    if (this.expiryTimer) return;
    const oldest = this.waiting.values().next();
    if (oldest.done) return this.wake();
    this.expiryTimer = setTimeout(
      () => {
        this.expiryTimer = undefined;
        this.expire();
        this.wake();
        if (this.queue.length > 0) this.armExpiry();
      },
      Math.max(1, oldest.value.until - this.now()),
    );
    this.expiryTimer.unref?.();
  }
}

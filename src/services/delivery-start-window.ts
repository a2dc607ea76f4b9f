import { AdaptiveLimit, AdaptiveLimitTuning } from '../domain/flow-control/adaptive-limit';
import { recordStartWait, setStartWindowSize } from '../infra/metrics';

/**
 * A started delivery should begin its first attempt within half a second: far inside the workflow
 * task's time-out, and short enough that work does not pile up in the worker (a 2 s target
 * measured lower capacity). Every account's start waits that long behind the others' in the worker,
 * whatever its share, so it is what a quiet account beside a flood waits. It moves each second.
 */
export const START_WINDOW_TUNING: Omit<AdaptiveLimitTuning, 'max'> = { min: 8, targetMs: 500, increase: 8, decrease: 0.75, intervalMs: 1_000 };

/**
 * An API process without a worker cannot see attempts begin: its slots free when Temporal answers
 * the start call, and the window keeps that answer within a quarter second. A start call slows
 * down only when Temporal is saturated, and a saturated Temporal serves every account's work first
 * come first served (its start calls, its history's queues) before the fair task queue is reached;
 * held to this, the backlog stays in the outbox, where accounts take turns and admission refuses
 * only those over their share.
 */
export const START_CALL_TUNING: Omit<AdaptiveLimitTuning, 'max'> = { min: 2, targetMs: 250, increase: 2, decrease: 0.75, intervalMs: 1_000 };

/**
 * Flow control between the outbox and Temporal: at most `limit` delivery workflows started by
 * this process may be waiting for their first attempt to begin. With `adaptive`, the limit follows
 * the measured wait (domain/flow-control/adaptive-limit.ts), up to `size`: work started faster
 * than the worker can run waits in the worker, and a workflow task that waits past its time-out
 * (DELIVERY_TASK_TIMEOUT_MS) is handed out again and its first attempt made twice (the collapse above capacity).
 *
 * Why: a workflow started faster than workers can run it waits in Temporal's task queue. On the
 * embedded dev server a deep backlog is expensive: queued tasks are written to and read back from
 * SQLite instead of being handed straight to a waiting poller, and thousands of open workflows
 * overflow the worker's workflow cache, so each one is fetched and replayed again when its
 * activity finishes. Measured (bench/temporal-ceiling.ts, 10,000 workflows): 36 workflows/s started all at
 * once, 52/s with at most 100–400 waiting. Accepted events wait in the outbox instead, which is
 * durable (the event is stored; crash recovery covers the process) and sheds ingest with 503 when
 * full (INGEST_BACKLOG_LIMIT).
 *
 * A slot opens when the workflow's first activity starts in this process's worker (a worker
 * interceptor tells us), or, in a process without a worker, when the start call is answered
 * (START_CALL_TUNING); after `expiryMs` in any case: the window never stalls the outbox for longer
 * than that. Size 0: no window.
 */
export class DeliveryStartWindow {
  /** Workflow id → when its slot frees itself. Map order is start order, so the oldest is first. */
  private readonly waiting = new Map<string, number>();
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
    /** Where each measured wait is recorded (a metric). */
    private readonly record: (waitMs: number) => void = recordStartWait,
  ) {
    this.adaptive = tuning && size > 0 ? new AdaptiveLimit({ ...tuning, max: size }, now) : undefined;
    if (size > 0) setStartWindowSize(this.limit);
  }

  get occupied(): number {
    return this.waiting.size;
  }

  /** Slots held or handed out. */
  private get taken(): number {
    return this.waiting.size + this.reserved;
  }

  /** The number of slots now (the configured size unless adaptive). */
  get limit(): number {
    return this.adaptive?.value ?? this.size;
  }

  /**
   * Waits for a slot and takes it for the workflow `pick` names then, before the start is sent: the
   * first activity may begin before the start call returns. The outbox picks its next start only
   * once a slot is free, so the turn between accounts is decided at the last moment, not by who
   * queued here first. A pick of null gives the slot back. Resolves to the workflow id taken for.
   */
  async take(pick: string | (() => string | null)): Promise<string | null> {
    const picked = typeof pick === 'string' ? () => pick : pick;
    if (this.size <= 0 || this.closed) return picked();
    this.expire();
    // First come, first served: a start that finds others waiting queues behind them, and a freed
    // slot is handed to the longest waiter (reserved for it) rather than to whoever asks next, so
    // no accepted event is overtaken again and again while its caller was promised a bound.
    if (this.queue.length > 0 || this.taken >= this.limit) {
      this.adaptive?.markFull();
      await new Promise<void>((resolve) => {
        this.queue.push(resolve);
        this.armExpiry();
      });
      if (this.closed) return picked();
      this.reserved--;
    }
    const workflowId = picked();
    if (workflowId === null) {
      this.wake();
      return null;
    }
    // Re-inserted at the end: the map's order is expiry order, which expire() relies on.
    this.waiting.delete(workflowId);
    this.waiting.set(workflowId, this.now() + this.expiryMs);
    return workflowId;
  }

  /** The workflow's first activity has started (or its start was not needed): the slot is free. */
  release(workflowId: string): void {
    const until = this.waiting.get(workflowId);
    if (until === undefined) return;
    this.waiting.delete(workflowId);
    this.measured(this.now() - (until - this.expiryMs));
    this.wake();
  }

  /** Shutdown: whoever waits goes on, and the window admits everyone from now on. */
  close(): void {
    this.closed = true;
    this.reserved = 0;
    clearTimeout(this.expiryTimer);
    this.expiryTimer = undefined;
    this.waiting.clear();
    for (const wake of this.queue.splice(0)) wake();
  }

  private expire(): void {
    const now = this.now();
    for (const [id, until] of this.waiting) {
      if (until > now) break;
      this.waiting.delete(id);
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

  /** Each free slot goes to the longest waiter. */
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
      Math.max(1, oldest.value - this.now()),
    );
    this.expiryTimer.unref?.();
  }
}

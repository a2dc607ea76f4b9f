import type { Logger } from '../infra/logger';
import { BusyRate } from '../domain/flow-control/busy-rate';
import { deliveryId } from '../domain/webhooks/delivery-id';
import type { EventDoc } from '../persistence/events';
import { EventsAwaitingHandOver } from '../persistence/events-awaiting-hand-over';
import type { DeliveryScheduler } from '../temporal/delivery-scheduler';
import type { DeliveryStartWindow } from './delivery-start-window';

export interface DeliveryOutboxOptions {
  /** Workflow starts in flight at once; a large fan-out is started in batches of this size. */
  startConcurrency: number;
  /** Starts wait for a slot here: Temporal is fed no faster than this process's worker begins attempts. */
  window?: DeliveryStartWindow;
}

interface Entry {
  event: EventDoc;
  remaining: number;
  resolve: () => void;
}

const MAX_START_BACKOFF_MS = 5_000;

/** The rate at which events are handed over is measured over this many seconds, once the backlog has been busy for a second of them. */
const HANDED_OVER_WINDOW_S = 5;
const HANDED_OVER_MIN_BUSY_MS = 1_000;

/**
 * The hand-off from an acknowledged event to its delivery workflows, in the background: an
 * ingest answers once its event is stored, and this starts one workflow per matching endpoint.
 *
 * Durability does not rest on this in-memory queue. Every event names the API process that
 * accepted it (its instance lease), and the lease records `handedOverThrough`: every event of
 * that process with an id at most this has been handed over. If the process dies, crash recovery
 * starts what lies above it (see crash-recovery.ts); workflow ids that refuse duplicates make a
 * second start harmless.
 */
export class DeliveryOutbox {
  /** Events this process has inserted (or is inserting) whose workflows have not all started: Events.insertWithNextId enters them. */
  readonly awaiting: EventsAwaitingHandOver;
  private readonly queue: Array<{ entry: Entry; index: number }> = [];
  private active = 0;
  private idle: Array<() => void> = [];
  /** A drain gave up: what is left is crash recovery's (the lease is kept). */
  private abandoned = false;
  private readonly handedOver: BusyRate;

  constructor(
    private readonly scheduler: DeliveryScheduler,
    private readonly logger: Logger,
    private readonly options: DeliveryOutboxOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.handedOver = new BusyRate(HANDED_OVER_WINDOW_S, HANDED_OVER_MIN_BUSY_MS, now);
    this.awaiting = new EventsAwaitingHandOver(now);
    this.awaiting.onChange((size) => {
      this.handedOver.setBusy(size > 0);
      this.wakeIdle();
    });
  }

  /** The event will not be delivered (it lost its idempotency key and was deleted: key-settlement.ts). */
  release(id: number): void {
    this.awaiting.leave(id);
  }

  get backlog(): number {
    return this.awaiting.size;
  }

  /** How long the oldest event here has waited for its workflows to start (0: none waits). */
  oldestWaitMs(): number {
    const oldest = this.awaiting.oldestSince();
    return oldest === null ? 0 : Math.max(0, this.now() - oldest);
  }

  /**
   * How long an event accepted now would wait for its workflows to start, if the backlog keeps
   * moving at the rate it did while it had work over the last few seconds. The oldest event's age
   * tells how late the queue was; this tells how late it will be, so admission can refuse before
   * the promise is broken rather than after. 0 until that rate is known (busy-rate.ts): the first
   * second of a burst on an idle process is judged by the oldest event's age alone.
   */
  expectedWaitMs(): number {
    const perSecond = this.handedOver.perBusySecond();
    return perSecond === undefined ? 0 : (this.awaiting.size / perSecond) * 1000;
  }

  /** The highest id through which every event of this process has been handed over (recorded in its lease). */
  handedOverThrough(highestIdTried: number): number {
    return this.awaiting.handedOverThrough(highestIdTried);
  }

  /**
   * An event whose insert or idempotency claim got no answer (the store failed): whether it is
   * stored and answers its key, and so may have been acknowledged, is unknown until `settle` says
   * (true: deliver it; false: it is not stored, or was removed). Asked again with a backoff until
   * it answers. Meanwhile the event stays pending: handedOverThrough holds below it, and a
   * graceful stop keeps the lease for crash recovery instead of dropping it. Once a drain has
   * given up on it, it stops asking and crash recovery settles it.
   */
  enqueueOnceSettled(event: EventDoc, settle: () => Promise<boolean>): void {
    this.awaiting.enter(event._id);
    void (async () => {
      for (let failures = 0; ; failures++) {
        await new Promise((r) => setTimeout(r, Math.min(MAX_START_BACKOFF_MS, 100 * 2 ** failures)).unref());
        try {
          if (await settle()) void this.enqueue(event);
          return;
        } catch (err) {
          this.logger.warn({ err, eventId: event._id }, 'settling an event whose store write got no answer failed; retrying');
          if (this.abandoned) return;
        }
      }
    })();
  }

  /** Starts the event's workflows in the background; the promise settles once all have started. */
  enqueue(event: EventDoc): Promise<void> {
    if (event.endpoint_ids.length === 0) {
      this.release(event._id);
      return Promise.resolve();
    }
    this.awaiting.enter(event._id);
    return new Promise<void>((resolve) => {
      const entry: Entry = { event, remaining: event.endpoint_ids.length, resolve };
      for (let index = 0; index < event.endpoint_ids.length; index++) this.queue.push({ entry, index });
      // After this turn: the ingest's answer is written first, not after the start's request is built.
      setImmediate(() => this.pump());
    });
  }

  /**
   * Resolves once every event this process accepted was handed over (or settled as not to be
   * delivered) and no ingest is in flight, or after `timeoutMs`; true when drained. False keeps
   * the lease, so that crash recovery finishes what is left.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    if (this.isIdle()) return true;
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      new Promise<boolean>((resolve) => this.idle.push(() => resolve(true))),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (!drained) this.abandoned = true;
    return drained;
  }

  private isIdle(): boolean {
    return this.queue.length === 0 && this.active === 0 && this.awaiting.settled;
  }

  private wakeIdle(): void {
    if (!this.isIdle()) return;
    for (const wake of this.idle.splice(0)) wake();
  }

  private pump(): void {
    while (this.active < this.options.startConcurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.active++;
      void this.start(job.entry, job.index).finally(() => {
        this.active--;
        this.pump();
        this.wakeIdle();
      });
    }
  }

  /** Retries until Temporal takes the start: the event is acknowledged, so giving up is not an option. */
  private async start(entry: Entry, index: number): Promise<void> {
    const { event } = entry;
    const endpointId = event.endpoint_ids[index];
    const workflowId = deliveryId(event._id, endpointId);
    const window = this.options.window;
    for (let failures = 0; ; failures++) {
      if (window) await window.take(workflowId);
      try {
        const started = await this.scheduler.start(
          {
            workflowId,
            eventId: event._id,
            endpointId,
            accountId: event.account_id,
            round: 1,
            type: event.type,
            timestamp: event.timestamp,
            body: event.body,
            acceptedAt: event.created_at.getTime(),
            url: event.endpoint_urls[index] ?? '',
          },
          { manualRetry: false },
        );
        if (started === 'already-exists') window?.release(workflowId);
        break;
      } catch (err) {
        window?.release(workflowId);
        this.logger.warn({ err, eventId: event._id, endpointId }, 'starting a delivery workflow failed; retrying');
        await new Promise((r) => setTimeout(r, Math.min(MAX_START_BACKOFF_MS, 100 * 2 ** failures)));
      }
    }
    if (--entry.remaining === 0) {
      this.handedOver.done();
      this.awaiting.leave(event._id);
      entry.resolve();
    }
  }
}

import type { Logger } from '../infra/logger';
import { type Backoff, retryWithBackoff } from '../infra/retry-with-backoff';
import { ATTR, contextOfTraceparent, recordPast, underTraceparent } from '../infra/tracing/spans';
import { BusyRate } from '../domain/flow-control/busy-rate';
import { FairQueue } from '../domain/flow-control/fair-queue';
import { addCount } from '../domain/flow-control/sliding-count';
import { TenantShares } from '../domain/flow-control/tenant-shares';
import { deliveryId } from '../domain/webhooks/delivery-id';
import type { EventDoc } from '../persistence/events';
import { EventsAwaitingHandOver } from '../persistence/events-awaiting-hand-over';
import type { DeliveryScheduler, ScheduledDelivery } from '../temporal/delivery-scheduler';
import type { DeliveryStartWindow } from './delivery-start-window';

export interface DeliveryOutboxOptions {
  /** Workflow starts in flight at once; a large fan-out is started in batches of this size. */
  startConcurrency: number;
  /** Starts wait for a slot: Temporal is fed no faster than this worker begins attempts or it answers. */
  window: DeliveryStartWindow;
  /** What frees a slot: the first attempt in this worker (default), or Temporal's answer (no worker). */
  windowFreedBy?: 'first-attempt' | 'start-call';
  /** Accounts with every attempt place taken (attempt-slots.ts) wait here, not in Temporal as throttled attempts; `poke` on change. */
  cannotMove?: (accountId: string) => boolean;
}

/** One workflow start: the event's endpoint at `index`; `done` once Temporal has it. */
interface Start {
  event: EventDoc;
  index: number;
  done: () => void;
}

const RETRY: Backoff = { firstMs: 100, maxMs: 5_000 };

/** The start rate is measured over these seconds, once the queue has been busy for a second of them. */
const STARTED_WINDOW_S = 5;
const STARTED_MIN_BUSY_MS = 1_000;
/** The start rate is the process's, all accounts together. */
const ALL_STARTS = 'all';
const SHARES_WINDOW_S = 10;

/**
 * Starts one workflow per endpoint of an acknowledged event. Accounts take turns (fair-queue.ts), so one that floods or
 * cannot move lengthens only its own queue, which admission reads to refuse that account alone. If this process dies,
 * crash recovery starts what its lease's batches above `handedOverThrough` hold (duplicate workflow ids are refused).
 */
export class DeliveryOutbox {
  /** Events inserted here whose workflows have not all started, by hand-over batch; Events.insertWithNextId enters them. */
  readonly awaiting: EventsAwaitingHandOver;
  private readonly queue: FairQueue<Start>;
  /** Starts under way, including those waiting for a window slot before they pick what to start. */
  private active = 0;
  /** Of those, the ones that have not picked yet. */
  private picking = 0;
  private idle: Array<() => void> = [];
  /** A drain is under way: every account's starts go, movable or not. */
  private draining = false;
  /** A drain gave up: what is left is crash recovery's (the lease is kept). */
  private abandoned = false;
  /** Starts taken from the queue and not yet made (at most `startConcurrency`), with when each was queued. */
  private readonly underWay = new Set<{ start: Start; since: number }>();
  /** Starts not yet made (queued or under way), in all and per account. */
  private pending = 0;
  private readonly pendingOf = new Map<string, number>();
  private readonly started: BusyRate;
  private readonly shares: TenantShares;
  private readonly passOver = (accountId: string) => !this.draining && (this.options.cannotMove?.(accountId) ?? false);

  constructor(
    private readonly scheduler: DeliveryScheduler,
    private readonly logger: Logger,
    private readonly options: DeliveryOutboxOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.queue = new FairQueue(now);
    this.started = new BusyRate(STARTED_WINDOW_S, STARTED_MIN_BUSY_MS, now);
    this.shares = new TenantShares(SHARES_WINDOW_S, now);
    this.awaiting = new EventsAwaitingHandOver(now);
    this.awaiting.onChange(() => this.wakeIdle());
  }

  get backlog(): number {
    return this.awaiting.size;
  }

  /** How long the oldest event here has waited for its workflows to start (0: none waits). */
  oldestWaitMs(): number {
    const oldest = this.awaiting.oldestSince();
    return oldest === null ? 0 : Math.max(0, this.now() - oldest);
  }

  /** How long the account's oldest start not yet made here has waited, queued or under way (0: none). */
  accountWaitMs(accountId: string): number {
    let oldest = this.queue.oldestWaitMs(accountId);
    for (const { start, since } of this.underWay) if (start.event.account_id === accountId) oldest = Math.max(oldest, this.now() - since);
    return oldest;
  }

  /**
   * How late the account will be at the recent busy start rate, accounts taking turns, so admission refuses
   * before the promise is broken. 0 until that rate is known (a burst's first second goes by accountWaitMs).
   */
  accountExpectedWaitMs(accountId: string): number {
    const perSecond = this.started.perBusySecond(ALL_STARTS);
    if (perSecond === undefined) return 0;
    const turns = Math.max(1, this.queue.tenants + (this.queue.sizeOf(accountId) === 0 ? 1 : 0));
    return ((this.queue.sizeOf(accountId) * turns) / perSecond) * 1000;
  }

  atOrAboveShare(accountId: string): boolean {
    return this.shares.atOrAboveShare(accountId);
  }

  holdsShareOfBacklog(accountId: string): boolean {
    const pending = this.pendingOf.get(accountId) ?? 0;
    return pending > 0 && pending * this.pendingOf.size >= this.pending;
  }

  /** What `cannotMove` says may have changed (a place was freed): starts passed over may go now. */
  poke(): void {
    if (this.queue.size > 0) this.pump();
  }

  /**
   * An event whose insert or key claim got no answer may have been acknowledged: `settle` says whether to deliver
   * it. Until then handedOverThrough holds below it; once a drain has given up, crash recovery settles it.
   */
  enqueueOnceSettled(event: EventDoc, settle: () => Promise<boolean>): void {
    this.awaiting.enter(event._id);
    const settled = async () => {
      if (await settle()) void this.enqueue(event);
    };
    const failed = (err: unknown) => {
      this.logger.warn({ err, eventId: event._id }, 'settling an event whose store write got no answer failed; retrying');
      return !this.abandoned;
    };
    // The write has failed once already: the first ask waits too.
    void retryWithBackoff(settled, RETRY, failed, 1);
  }

  /** Starts the event's workflows in the background; the promise settles once all have started. */
  enqueue(event: EventDoc): Promise<void> {
    if (event.endpoint_ids.length === 0) {
      this.awaiting.leave(event._id);
      return Promise.resolve();
    }
    this.awaiting.enter(event._id);
    this.shares.add(event.account_id, event.endpoint_ids.length);
    this.countPending(event.account_id, event.endpoint_ids.length);
    const starts = event.endpoint_ids.map((_, index) => new Promise<void>((done) => this.queue.push(event.account_id, { event, index, done })));
    this.started.setBusy(ALL_STARTS, this.queue.ready(this.passOver) > 0);
    // After this turn: the ingest's answer is written first, not after the start's request is built.
    setImmediate(() => this.pump());
    return Promise.all(starts).then(() => this.awaiting.leave(event._id));
  }

  /** True once every event accepted here is handed over (or settled) and no ingest is in flight; false after `timeoutMs`. */
  async drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    this.poke();
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
    return this.queue.size === 0 && this.active === 0 && this.awaiting.settled;
  }

  private countPending(accountId: string, n: number): void {
    this.pending += n;
    addCount(this.pendingOf, accountId, n);
  }

  private wakeIdle(): void {
    if (!this.isIdle()) return;
    for (const wake of this.idle.splice(0)) wake();
  }

  private pump(): void {
    const ready = this.queue.ready(this.passOver);
    this.started.setBusy(ALL_STARTS, ready > 0);
    while (this.active < this.options.startConcurrency && this.picking < ready) {
      this.active++;
      this.picking++;
      void this.startNext().finally(() => {
        this.active--;
        this.pump();
        this.wakeIdle();
      });
    }
  }

  /** Waits for a window slot, then starts the next account's turn (none, when every queue left cannot move). */
  private async startNext(): Promise<void> {
    let taken: { start: Start; since: number } | undefined;
    const pick = () => {
      this.picking--;
      const next = this.queue.shift(this.passOver);
      if (!next) return null;
      taken = { start: next.item, since: next.since };
      this.underWay.add(taken);
      const { event, index } = next.item;
      return { workflowId: deliveryId(event._id, event.endpoint_ids[index]), accountId: event.account_id };
    };
    await this.options.window.take(pick);
    if (!taken) return;
    try {
      await this.start(taken.start);
    } finally {
      this.underWay.delete(taken);
    }
  }

  /** Retries until Temporal takes it, as the event is acknowledged; a retry waits for another window slot. */
  private async start({ event, index, done }: Start): Promise<void> {
    const endpointId = event.endpoint_ids[index];
    const workflowId = deliveryId(event._id, endpointId);
    const window = this.options.window;
    // The wait since acceptance, in the event's trace (the workflow start below joins it too).
    recordPast('webhook.outbox.wait', contextOfTraceparent(event.traceparent), event.created_at.getTime(), () => ({
      [ATTR.eventId]: event._id,
      [ATTR.endpointId]: endpointId,
      [ATTR.accountId]: event.account_id,
    }));
    const place = event.fifo_places?.[endpointId];
    const head = event.fifo_heads?.[endpointId];
    const delivery: ScheduledDelivery = {
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
      ...(place !== undefined && head !== undefined && { fifoPlace: { n: place, head } }),
    };
    const started = async (failures: number) => {
      if (failures > 0) await window.take({ workflowId, accountId: event.account_id });
      const answer = await underTraceparent(event.traceparent, () => this.scheduler.start(delivery, { manualRetry: false }));
      if (answer === 'already-exists' || this.options.windowFreedBy === 'start-call') window.release(workflowId);
    };
    await retryWithBackoff(started, RETRY, (err) => {
      window.release(workflowId);
      this.logger.warn({ err, eventId: event._id, endpointId }, 'starting a delivery workflow failed; retrying');
    });
    this.started.done(ALL_STARTS);
    this.countPending(event.account_id, -1);
    done();
  }
}

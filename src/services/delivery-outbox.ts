import type { Logger } from '../infra/logger';
import { BusyRate } from '../domain/flow-control/busy-rate';
import { FairQueue } from '../domain/flow-control/fair-queue';
import { TenantShares } from '../domain/flow-control/tenant-shares';
import { deliveryId } from '../domain/webhooks/delivery-id';
import type { EventDoc } from '../persistence/events';
import { EventsAwaitingHandOver } from '../persistence/events-awaiting-hand-over';
import type { DeliveryScheduler } from '../temporal/delivery-scheduler';
import type { DeliveryStartWindow } from './delivery-start-window';

export interface DeliveryOutboxOptions {
  /** Workflow starts in flight at once; a large fan-out is started in batches of this size. */
  startConcurrency: number;
  /** Starts wait for a slot here: Temporal is fed no faster than this process's worker begins attempts, or than Temporal answers start calls. */
  window?: DeliveryStartWindow;
  /** What frees a start's window slot: its first attempt beginning in this process's worker (the default), or Temporal's answer to the start call (a process without a worker). */
  windowFreedBy?: 'first-attempt' | 'start-call';
  /**
   * Accounts whose deliveries cannot move in this process now (every place for their attempts is
   * taken: attempt-slots.ts): their starts wait here, passed over in the round, instead of waiting
   * in Temporal as throttled attempts. Call `poke` when that may have changed.
   */
  cannotMove?: (accountId: string) => boolean;
}

interface Entry {
  event: EventDoc;
  remaining: number;
  resolve: () => void;
}

const MAX_START_BACKOFF_MS = 5_000;

/** The pause before the next try of a store or Temporal call that failed `failures` times: 100 ms doubling, at most 5 s. */
const backOff = (failures: number) => new Promise((resolve) => setTimeout(resolve, Math.min(MAX_START_BACKOFF_MS, 100 * 2 ** failures)).unref());

/** The rate at which deliveries start is measured over this many seconds, once the queue has been busy for a second of them. */
const STARTED_WINDOW_S = 5;
const STARTED_MIN_BUSY_MS = 1_000;
/** Each account's share of what was accepted is measured over this many seconds. */
const SHARES_WINDOW_S = 10;

/**
 * The hand-off from an acknowledged event to its delivery workflows, in the background: an
 * ingest answers once its event is stored, and this starts one workflow per matching endpoint.
 *
 * Starts are fair between accounts: each account has its own queue and they take turns
 * (fair-queue.ts), one start each, at the moment the start window has room. So an account that
 * floods, or whose deliveries cannot move, lengthens only its own queue, and what ingest admission
 * reads of it (`accountWaitMs`, `accountExpectedWaitMs`) refuses that account, not the others.
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
  /** One start per endpoint of each event, queued per account. */
  private readonly queue: FairQueue<{ entry: Entry; index: number }>;
  /** Starts under way, including those waiting for a window slot before they pick what to start. */
  private active = 0;
  /** Of those, the ones that have not picked yet. */
  private picking = 0;
  private idle: Array<() => void> = [];
  /** A drain is under way: every account's starts go, movable or not. */
  private draining = false;
  /** A drain gave up: what is left is crash recovery's (the lease is kept). */
  private abandoned = false;
  /** Starts taken from the queue and not yet made: at most `startConcurrency`. */
  private readonly underWay = new Set<{ accountId: string; since: number }>();
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

  /** How long the account's oldest start not yet made here has waited, queued or under way (0: none). */
  accountWaitMs(accountId: string): number {
    let oldest = this.queue.oldestWaitMs(accountId);
    for (const start of this.underWay) if (start.accountId === accountId) oldest = Math.max(oldest, this.now() - start.since);
    return oldest;
  }

  /**
   * How long a start of this account queued now would wait, if starts keep the rate they had while
   * there was work over the last few seconds and the accounts waiting keep taking turns: its queue
   * times the accounts in the round, over that rate. The oldest start's age tells how late the
   * account is; this tells how late it will be, so admission can refuse before the promise is
   * broken rather than after. 0 until that rate is known (busy-rate.ts): the first second of a
   * burst on an idle process is judged by the oldest start's age alone.
   */
  accountExpectedWaitMs(accountId: string): number {
    const perSecond = this.started.perBusySecond();
    if (perSecond === undefined) return 0;
    const turns = Math.max(1, this.queue.tenants + (this.queue.sizeOf(accountId) === 0 ? 1 : 0));
    return ((this.queue.sizeOf(accountId) * turns) / perSecond) * 1000;
  }

  /** Whether the account took at least an equal share of the deliveries accepted here over the last seconds (tenant-shares.ts). */
  atOrAboveShare(accountId: string): boolean {
    return this.shares.atOrAboveShare(accountId);
  }

  /** Whether the account holds at least an equal share of the starts not yet made here (among the accounts with any). */
  holdsShareOfBacklog(accountId: string): boolean {
    const pending = this.pendingOf.get(accountId) ?? 0;
    return pending > 0 && pending * this.pendingOf.size >= this.pending;
  }

  /** What `cannotMove` says may have changed (a place was freed): starts passed over may go now. */
  poke(): void {
    if (this.queue.size > 0) this.pump();
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
        await backOff(failures);
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
    this.shares.add(event.account_id, event.endpoint_ids.length);
    this.countPending(event.account_id, event.endpoint_ids.length);
    return new Promise<void>((resolve) => {
      const entry: Entry = { event, remaining: event.endpoint_ids.length, resolve };
      for (let index = 0; index < event.endpoint_ids.length; index++) this.queue.push(event.account_id, { entry, index });
      this.started.setBusy(this.queue.ready(this.passOver) > 0);
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
    const left = (this.pendingOf.get(accountId) ?? 0) + n;
    if (left <= 0) this.pendingOf.delete(accountId);
    else this.pendingOf.set(accountId, left);
  }

  private wakeIdle(): void {
    if (!this.isIdle()) return;
    for (const wake of this.idle.splice(0)) wake();
  }

  private pump(): void {
    const ready = this.queue.ready(this.passOver);
    this.started.setBusy(ready > 0);
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
    let job: { entry: Entry; index: number } | undefined;
    let underWay: { accountId: string; since: number } | undefined;
    const pick = () => {
      this.picking--;
      const next = this.queue.shift(this.passOver);
      if (!next) return null;
      job = next.item;
      underWay = { accountId: next.tenant, since: next.since };
      this.underWay.add(underWay);
      return deliveryId(job.entry.event._id, job.entry.event.endpoint_ids[job.index]);
    };
    if (this.options.window) await this.options.window.take(pick);
    else pick();
    if (!job || !underWay) return;
    try {
      await this.start(job.entry, job.index);
    } finally {
      this.underWay.delete(underWay);
    }
  }

  /**
   * Retries until Temporal takes the start: the event is acknowledged, so giving up is not an
   * option. It comes with its window slot; a retry waits for another.
   */
  private async start(entry: Entry, index: number): Promise<void> {
    const { event } = entry;
    const endpointId = event.endpoint_ids[index];
    const workflowId = deliveryId(event._id, endpointId);
    const window = this.options.window;
    for (let failures = 0; ; failures++) {
      if (window && failures > 0) await window.take(workflowId);
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
        if (started === 'already-exists' || this.options.windowFreedBy === 'start-call') window?.release(workflowId);
        break;
      } catch (err) {
        window?.release(workflowId);
        this.logger.warn({ err, eventId: event._id, endpointId }, 'starting a delivery workflow failed; retrying');
        await backOff(failures);
      }
    }
    this.started.done();
    this.countPending(event.account_id, -1);
    if (--entry.remaining === 0) {
      this.awaiting.leave(event._id);
      entry.resolve();
    }
  }
}

import { overloaded } from '../domain/errors';
import { AdaptiveLimit, AdaptiveLimitTuning } from '../domain/flow-control/adaptive-limit';
import { PREDICTED_WAIT_SHARE } from '../domain/flow-control/backlog-budget';
import { RetryAfterAdvice } from '../domain/flow-control/retry-after';
import { addCount } from '../domain/flow-control/sliding-count';
import { recordIngestShed, ShedReason } from '../infra/metrics';
import { annotateActive, annotateIngest, ATTR, inSpan } from '../infra/tracing/spans';
import type { DeliveryOutbox } from './delivery-outbox';

export interface IngestAdmissionOptions {
  /** Accepted events waiting for their workflows to start in this process, past which ingest is refused (a memory bound). */
  backlogLimit: number;
  /** How long the oldest accepted event may wait for its workflows to start (MAX_BACKLOG_S) before new events are refused. */
  maxBacklogMs: number;
  /** Event-loop delay (p99, sustained for two seconds) past which new events are refused: the process is out of CPU. */
  maxLoopDelayMs: number;
  /** With a worker here: how long a new attempt of the account would wait for a place (attempt-slots.ts); absent: 0. */
  placesWaitMs?: (accountId: string) => number;
  /** Whether the workers see this account's deliveries falling behind (lagging-accounts.ts); absent: not asked. */
  lagging?: (accountId: string) => boolean;
}

/**
 * As many ingests in flight as answer within the target (p90): a slow store gets the rest refused, not queued. Tight, as
 * ingest shares store and CPU with delivery, and a loose target lets a flood of ingests take delivery's share. API-only,
 * the tighter target: its ingests wait behind worker writes it cannot see, so a looser one lets them pass the 1 s answer
 * promise. Also delivering, the looser one: a tighter one refuses ingests this process's own deliveries would have made
 * room for. Each is checked by bench:overload (combined and separate topologies, BENCHMARKS.md).
 */
export function ingestConcurrencyTuning(workerInProcess: boolean): AdaptiveLimitTuning {
  return { min: 4, max: 256, targetMs: workerInProcess ? 250 : 150, increase: 4, decrease: 0.75, intervalMs: 1_000 };
}

/** Follows what the platform can deliver and refuses first the accounts over their share, so one account's flood spares the rest. */
export class IngestAdmission {
  private inFlight = 0;
  private readonly inFlightOf = new Map<string, number>();
  private readonly concurrency: AdaptiveLimit;
  private readonly retryAfter: RetryAfterAdvice;

  constructor(
    private readonly outbox: Pick<DeliveryOutbox, 'backlog' | 'accountWaitMs' | 'accountExpectedWaitMs' | 'atOrAboveShare' | 'holdsShareOfBacklog'>,
    private readonly loop: { sustainedP99Ms(): number },
    private readonly options: IngestAdmissionOptions,
    tuning: AdaptiveLimitTuning = ingestConcurrencyTuning(true),
    private readonly now: () => number = Date.now,
  ) {
    this.concurrency = new AdaptiveLimit(tuning, now);
    this.retryAfter = new RetryAfterAdvice(now);
  }

  /**
   * Throws `overloaded` (503), or takes a place as a ticket the caller releases once answered. Asked before metering and
   * the body read, so a refusal costs almost nothing (under overload, refusals far outnumber accepted events).
   */
  admit(accountId: string): IngestTicket {
    return inSpan('webhook.ingest.admission', () => ({ [ATTR.accountId]: accountId }), () => {
      if (this.inFlight >= this.concurrency.value) {
        this.concurrency.markFull();
        // An account with fewer ingests in flight than an equal share of them still gets in.
        if ((this.inFlightOf.get(accountId) ?? 0) * this.inFlightOf.size >= this.inFlight) this.refuse('ingest_concurrency', accountId);
      }
      const reason = this.refusal(accountId);
      if (reason !== null) this.refuse(reason, accountId);
      this.retryAfter.taken();
      annotateActive(() => ({ [ATTR.admission]: 'admitted' }));
      this.inFlight++;
      addCount(this.inFlightOf, accountId, 1);
      const started = this.now();
      return new Ticket(accountId, () => {
        this.inFlight--;
        addCount(this.inFlightOf, accountId, -1);
        this.concurrency.observe(this.now() - started);
      });
    });
  }

  /** Why a new event of the account would be refused now for what the platform can deliver, or null (the places in flight aside). */
  refusal(accountId: string): ShedReason | null {
    // How late the account's own starts are, and how late a new one would be at the rate its turns come, then its places free.
    const max = this.options.maxBacklogMs;
    const expectedMs = this.outbox.accountExpectedWaitMs(accountId) + (this.options.placesWaitMs?.(accountId) ?? 0);
    if (this.outbox.accountWaitMs(accountId) > max || expectedMs > max * PREDICTED_WAIT_SHARE) return 'backlog_age';
    // Late in Temporal's queue or waiting for its places, wherever the worker runs (without one, all an API process sees of delivery).
    if (this.options.lagging?.(accountId)) return 'delivery_lag';
    // The memory bound is shared by what waits; CPU by what was taken in over the last seconds.
    if (this.outbox.backlog >= this.options.backlogLimit && this.outbox.holdsShareOfBacklog(accountId)) return 'backlog_count';
    if (this.loop.sustainedP99Ms() > this.options.maxLoopDelayMs && this.outbox.atOrAboveShare(accountId)) return 'event_loop';
    return null;
  }

  private refuse(reason: ShedReason, accountId: string): never {
    recordIngestShed(reason);
    annotateActive(() => ({ [ATTR.admission]: 'refused', [ATTR.refusalReason]: reason }));
    annotateIngest(() => ({ [ATTR.accountId]: accountId, [ATTR.refusalReason]: reason }));
    throw overloaded(this.retryAfter.refuse());
  }
}

/** Only `admit` makes one (unexported, with private members against look-alikes): no ingest reaches the service undecided. */
class Ticket {
  private released = false;

  constructor(
    readonly accountId: string,
    private readonly free: () => void,
  ) {}

  /** Frees the place; a second call does nothing. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.free();
  }
}

export type IngestTicket = Ticket;

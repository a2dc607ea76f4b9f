import { overloaded } from '../domain/errors';
import { AdaptiveLimit, AdaptiveLimitTuning } from '../domain/flow-control/adaptive-limit';
import { RetryAfterAdvice } from '../domain/flow-control/retry-after';
import { recordIngestShed, ShedReason } from '../infra/metrics';
import { annotateActive, annotateIngest, ATTR, inSpanSync } from '../infra/tracing/spans';
import type { DeliveryOutbox } from './delivery-outbox';

export interface IngestAdmissionOptions {
  /** Accepted events waiting for their workflows to start in this process, past which ingest is refused (a memory bound). */
  backlogLimit: number;
  /** How long the oldest accepted event may wait for its workflows to start (MAX_BACKLOG_S) before new events are refused. */
  maxBacklogMs: number;
  /** Event-loop delay (p99, sustained for two seconds) past which new events are refused: the process is out of CPU. */
  maxLoopDelayMs: number;
  /** Whether the workers see this account's deliveries falling behind (lagging-accounts.ts); absent: not asked. */
  lagging?: (accountId: string) => boolean;
}

/**
 * Ingests in flight at once (admitted, not yet answered): as many as answer within a quarter of a
 * second (p90). A store that slows down makes each ingest hold its place longer, so fewer are let in
 * and the rest are refused at once, instead of every caller waiting behind a queue. Ingest and
 * delivery share the store and the CPU: a looser limit (32–512, 500 ms) let ingest take so much of
 * them that capacity fell from ~26 to ~11 deliveries/s in bench:overload.
 */
export const INGEST_CONCURRENCY_TUNING: AdaptiveLimitTuning = { min: 4, max: 256, targetMs: 250, increase: 4, decrease: 0.75, intervalMs: 1_000 };

/**
 * Whether this process takes a new event of an account now. It follows what the platform can
 * deliver and answer, not a count tuned on one machine, and it refuses the accounts that take more
 * than their share first (max-min fairness), so one account's flood or dead receivers do not take
 * the others off the air:
 * - the outbox starts workflows only as fast as the worker begins their attempts (its start window
 *   adapts to the measured wait), and accounts take turns there (delivery-outbox.ts); when an
 *   account's own starts wait too long, or would at the rate its turns come (backlog_age,
 *   MAX_BACKLOG_S), that account is refused. An account asking less than an equal share of what
 *   starts is served every round and never waits that long;
 * - the workers publish the accounts whose first attempts wait past MAX_BACKLOG_S since acceptance
 *   (in Temporal's task queue, which dispatches by account in turn, or for the account's places):
 *   those are refused too (delivery_lag). It is what an API process without a worker sees of delivery;
 * - when the process as a whole is short, only the accounts taking at least an equal share of
 *   what is short are refused: of the deliveries accepted over the last seconds when it is out of
 *   CPU (event_loop), of the starts waiting when it holds its most accepted events (backlog_count),
 *   of the ingests in flight when those are at their adaptive limit because the store slowed down
 *   (ingest_concurrency).
 * A refused event is answered at once with 503 and Retry-After, before anything is read or stored,
 * so the events already accepted keep their promise (docs: overload). Retry-After follows how
 * oversubscribed the process has been (domain/flow-control/retry-after.ts).
 */
export class IngestAdmission {
  private inFlight = 0;
  private readonly inFlightOf = new Map<string, number>();
  private readonly concurrency: AdaptiveLimit;
  private readonly retryAfter: RetryAfterAdvice;

  constructor(
    private readonly outbox: Pick<DeliveryOutbox, 'backlog' | 'accountWaitMs' | 'accountExpectedWaitMs' | 'atOrAboveShare' | 'holdsShareOfBacklog'>,
    private readonly loop: { sustainedP99Ms(): number },
    private readonly options: IngestAdmissionOptions,
    tuning: AdaptiveLimitTuning = INGEST_CONCURRENCY_TUNING,
    private readonly now: () => number = Date.now,
  ) {
    this.concurrency = new AdaptiveLimit(tuning, now);
    this.retryAfter = new RetryAfterAdvice(now);
  }

  /**
   * Decides, once per ingest, whether this process takes a new event of the account now: throws
   * `overloaded` (503) to refuse, having recorded the reason, or takes a place in flight and hands
   * it back as a ticket. The ingest goes to the service with its ticket, and whoever asked here
   * releases it once the call is answered, however it ends. Asked before the call is metered and
   * its body read, so that a refusal under overload costs almost nothing (at three times capacity
   * refusals outnumber accepted events ten to one).
   */
  admit(accountId: string): IngestTicket {
    return inSpanSync('webhook.ingest.admission', () => ({ [ATTR.accountId]: accountId }), () => this.decide(accountId));
  }

  private decide(accountId: string): IngestTicket {
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
    this.inFlightOf.set(accountId, (this.inFlightOf.get(accountId) ?? 0) + 1);
    const started = this.now();
    return new Ticket(accountId, () => {
      this.inFlight--;
      const left = (this.inFlightOf.get(accountId) ?? 1) - 1;
      if (left === 0) this.inFlightOf.delete(accountId);
      else this.inFlightOf.set(accountId, left);
      this.concurrency.observe(this.now() - started);
    });
  }

  /** Why a new event of the account would be refused now for what the platform can deliver, or null (the places in flight aside). */
  refusal(accountId: string): ShedReason | null {
    // How late the account's own starts are, and how late a new one would be at the rate its turns come.
    const max = this.options.maxBacklogMs;
    if (this.outbox.accountWaitMs(accountId) > max || this.outbox.accountExpectedWaitMs(accountId) > max) return 'backlog_age';
    // Late in Temporal's queue or waiting for its places, wherever the worker runs.
    if (this.options.lagging?.(accountId)) return 'delivery_lag';
    // The memory bound is shared by what waits; CPU by what was taken in over the last seconds.
    if (this.outbox.backlog >= this.options.backlogLimit && this.outbox.holdsShareOfBacklog(accountId)) return 'backlog_count';
    if (this.loop.sustainedP99Ms() > this.options.maxLoopDelayMs && this.outbox.atOrAboveShare(accountId)) return 'event_loop';
    return null;
  }

  /** Ingests this process may have in flight now. */
  get concurrencyLimit(): number {
    return this.concurrency.value;
  }

  private refuse(reason: ShedReason, accountId: string): never {
    recordIngestShed(reason);
    annotateActive(() => ({ [ATTR.admission]: 'refused', [ATTR.refusalReason]: reason }));
    annotateIngest(() => ({ [ATTR.accountId]: accountId, [ATTR.refusalReason]: reason }));
    this.retryAfter.refused();
    throw overloaded(this.retryAfter.seconds());
  }
}

/**
 * One admitted ingest's place in flight. Only `IngestAdmission.admit` makes one (the class is not
 * exported and its private members keep a look-alike from passing as one), so an ingest cannot
 * reach the service without having been decided.
 */
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

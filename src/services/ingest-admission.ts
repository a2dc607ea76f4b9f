import { overloaded } from '../domain/errors';
import { AdaptiveLimit, AdaptiveLimitTuning } from '../domain/flow-control/adaptive-limit';
import { RetryAfterAdvice } from '../domain/flow-control/retry-after';
import { recordIngestShed, ShedReason } from '../infra/metrics';
import type { DeliveryOutbox } from './delivery-outbox';

export interface IngestAdmissionOptions {
  /** Accepted events waiting for their workflows to start in this process, past which ingest is refused (a memory bound). */
  backlogLimit: number;
  /** How long the oldest accepted event may wait for its workflows to start (MAX_BACKLOG_S) before new events are refused. */
  maxBacklogMs: number;
  /** Event-loop delay (p99, sustained for two seconds) past which new events are refused: the process is out of CPU. */
  maxLoopDelayMs: number;
}

/**
 * Ingests in flight at once: as many as answer within a quarter of a second (p90). A store that slows
 * down makes each ingest hold its place longer, so fewer are let in and the rest are refused at once,
 * instead of every caller waiting behind a queue. Ingest and delivery share the store and the CPU:
 * a looser limit (32–512, 500 ms) let ingest take so much of them that capacity fell from ~26 to
 * ~11 deliveries/s in bench:overload (BENCHMARKS.md).
 */
export const INGEST_CONCURRENCY_TUNING: AdaptiveLimitTuning = { min: 4, max: 256, targetMs: 250, increase: 4, decrease: 0.75, intervalMs: 1_000 };

/**
 * Whether this process takes a new event now. It follows what the platform can deliver and answer,
 * not a count tuned on one machine:
 * - the outbox starts workflows only as fast as the worker begins their attempts (its start window
 *   adapts to the measured wait), so when delivery falls behind, the oldest accepted event waits
 *   longer, and a new one would wait the backlog over the rate it moves (backlog_age, MAX_BACKLOG_S);
 * - when the process runs out of CPU its event loop lags (event_loop);
 * - when the store slows down, ingests take longer and fewer may be in flight (ingest_concurrency).
 * A refused event is answered at once with 503 and Retry-After, before anything is read or stored,
 * so the events already accepted keep their promise (docs: overload). Retry-After follows how
 * oversubscribed the process has been (domain/flow-control/retry-after.ts).
 */
export class IngestAdmission {
  private inFlight = 0;
  private readonly concurrency: AdaptiveLimit;
  private readonly retryAfter: RetryAfterAdvice;

  constructor(
    private readonly outbox: Pick<DeliveryOutbox, 'backlog' | 'oldestWaitMs' | 'expectedWaitMs'>,
    private readonly loop: { sustainedP99Ms(): number },
    private readonly options: IngestAdmissionOptions,
    tuning: AdaptiveLimitTuning = INGEST_CONCURRENCY_TUNING,
    private readonly now: () => number = Date.now,
  ) {
    this.concurrency = new AdaptiveLimit(tuning, now);
    this.retryAfter = new RetryAfterAdvice(now);
  }

  /** Takes one new ingest in, or throws `overloaded` (503). Call the returned function once it is answered. */
  enter(): () => void {
    this.screen();
    this.retryAfter.taken();
    this.inFlight++;
    const started = this.now();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlight--;
      this.concurrency.observe(this.now() - started);
    };
  }

  /**
   * Throws `overloaded` (503) when `enter` would refuse now, without taking a place: asked before
   * the call is metered and its body read, so that a refusal under overload costs almost nothing
   * (at three times capacity refusals outnumber accepted events ten to one). `enter` still decides.
   */
  screen(): void {
    if (this.inFlight >= this.concurrency.value) {
      this.concurrency.markFull();
      this.refuse('ingest_concurrency');
    }
    this.check();
  }

  /** Throws `overloaded` (503) when the backlog or the process says no (an ingest already in may ask again after a read). */
  check(): void {
    const reason = this.refusal();
    if (reason !== null) this.refuse(reason);
  }

  refusal(): ShedReason | null {
    if (this.outbox.backlog >= this.options.backlogLimit) return 'backlog_count';
    // How late the queue is, and how late a new event would be at the rate it moves.
    if (this.outbox.oldestWaitMs() > this.options.maxBacklogMs) return 'backlog_age';
    if (this.outbox.expectedWaitMs() > this.options.maxBacklogMs) return 'backlog_age';
    if (this.loop.sustainedP99Ms() > this.options.maxLoopDelayMs) return 'event_loop';
    return null;
  }

  /** Ingests this process may have in flight now. */
  get concurrencyLimit(): number {
    return this.concurrency.value;
  }

  private refuse(reason: ShedReason): never {
    recordIngestShed(reason);
    this.retryAfter.refused();
    throw overloaded(this.retryAfter.seconds());
  }
}

import { collectDefaultMetrics, Counter, Gauge, Histogram, register } from 'prom-client';
import { FINISHED_DELIVERY_STATUSES } from '../domain/webhooks/delivery-status';

/** One registry per process (Prometheus adds API and worker up); labels take fixed values, no ids: series never grow. */
export const metricsRegistry = register;
collectDefaultMetrics();

export const INGEST_OUTCOMES = ['accepted', 'repeat', 'rejected_invalid', 'rejected_too_large', 'rejected_conflict', 'rejected_overloaded', 'rejected_error'] as const;
export type IngestOutcome = (typeof INGEST_OUTCOMES)[number];

export const ATTEMPT_STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'confirmed', 'network', 'timeout'] as const;

export const HAND_OFF_STAGES = ['store', 'place', 'post'] as const;
export type HandOffStage = (typeof HAND_OFF_STAGES)[number];

export const THROTTLE_LIMITS = ['places', 'endpoint_limits'] as const;
export type ThrottleLimit = (typeof THROTTLE_LIMITS)[number];

export const LIMIT_REJECTION_KINDS = ['burst', 'quota', 'anonymous'] as const;

export const SHED_REASONS = ['backlog_count', 'backlog_age', 'delivery_lag', 'event_loop', 'ingest_concurrency'] as const;
export type ShedReason = (typeof SHED_REASONS)[number];

/** A counter by one label whose every value exists from the start, so rates and ratios have a series before the first event. */
function countedBy<V extends string>(label: string, values: readonly V[], metric: { name: string; help: string }): (value: V) => void {
  const counter = new Counter({ ...metric, labelNames: [label] });
  for (const value of values) counter.inc({ [label]: value }, 0);
  return (value) => counter.inc({ [label]: value });
}

/** A histogram in seconds, told milliseconds (a negative span, clocks apart, counts as 0). */
function secondsHistogram(metric: { name: string; help: string; buckets: number[] }): (ms: number) => void {
  const histogram = new Histogram(metric);
  return (ms) => histogram.observe(Math.max(0, ms) / 1000);
}

function gauge(metric: { name: string; help: string }): (value: number) => void {
  const instrument = new Gauge(metric);
  return (value) => instrument.set(value);
}

/** A gauge read at each scrape from the source set later (none set: no value), divided by `per` (ms to s: 1000). */
function sourcedGauge(metric: { name: string; help: string }, per = 1): (source: () => number) => void {
  let source: (() => number) | undefined;
  new Gauge({
    ...metric,
    collect() {
      if (source) this.set(source() / per);
    },
  });
  return (read) => (source = read);
}

export const recordIngest = countedBy('outcome', INGEST_OUTCOMES, {
  name: 'webhook_ingests_total',
  help: 'POST /api/v1/webhooks/events calls by outcome: accepted (202), repeat (idempotent 200), rejected_<reason>.',
});

export const recordDeliveryFinished = countedBy('status', FINISHED_DELIVERY_STATUSES, {
  name: 'webhook_deliveries_total',
  help: 'Deliveries (one event to one endpoint, one round) that reached a final status.',
});

const countAttempt = countedBy('status_class', ATTEMPT_STATUS_CLASSES, {
  name: 'webhook_attempts_total',
  help: 'Delivery attempts by outcome class: the HTTP status class, a broker\'s confirmation, or network / timeout.',
});

const observeAttemptDuration = secondsHistogram({
  name: 'webhook_attempt_duration_seconds',
  help: 'Duration of one delivery attempt (connect to complete answer, or the failure), in seconds.',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});

export const recordFirstAttemptLatency = secondsHistogram({
  name: 'webhook_ingest_to_first_attempt_seconds',
  help: 'From accepting an event to the start of its first delivery attempt to an endpoint, in seconds.',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
});

export const recordHandOff = countedBy('stage', HAND_OFF_STAGES, {
  name: 'webhook_attempt_hand_offs_total',
  help: 'Local first attempts handed off after their budget (their POST goes on, and its outcome is reported to their workflow), by what the attempt was doing then: store (reading or recording), place (waiting for its account or endpoint place), post (waiting for the receiver).',
});

export const recordAttemptThrottled = countedBy('limit', THROTTLE_LIMITS, {
  name: 'webhook_attempts_throttled_total',
  help: "Attempts told to wait and ask again, not made, by the limit they met: places (the account's or endpoint's attempts in flight in this process), endpoint_limits (the endpoint's own rate_limit_per_s or max_in_flight).",
});

export const setFirstAttemptsHeld = gauge({
  name: 'webhook_first_attempts_held',
  help: "Local first attempts keeping their workflow task past the hand-off budget while their receiver answers (at most the worker's room for them; past it, attempts are handed off).",
});

export const recordLimitRejection = countedBy('kind', LIMIT_REJECTION_KINDS, {
  name: 'ratelimit_rejections_total',
  help: 'Calls refused with 429 by kind: burst (per-minute window), quota (monthly), anonymous (per-IP estimator limit).',
});

export const recordIngestShed = countedBy('reason', SHED_REASONS, {
  name: 'webhook_ingest_shed_total',
  help: 'New events refused with 503 by admission, by reason: backlog_count (INGEST_BACKLOG_LIMIT), backlog_age (the oldest accepted event waited MAX_BACKLOG_S), event_loop (the process is out of CPU), ingest_concurrency (ingests in flight at their adaptive limit: the store is slow).',
});

export const setEventLoopDelaySeconds = gauge({
  name: 'platform_event_loop_delay_p99_seconds',
  help: "This process's event-loop delay, p99 over the last second (what ingest admission reads).",
});

export const recordStartWait = secondsHistogram({
  name: 'webhook_start_to_first_attempt_seconds',
  help: 'From starting a delivery workflow to its first attempt beginning in this process (a slot that expired counts as its expiry): what the start window adapts to.',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

export const recordStartCall = secondsHistogram({
  name: 'webhook_start_call_seconds',
  help: 'In a process without a worker: how long Temporal took to answer a delivery workflow start (a slot that expired counts as its expiry): what its start window adapts to.',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

export const setStartWindowSize = gauge({
  name: 'webhook_start_window_size',
  help: 'The adaptive start window: delivery workflows this process may have started and waiting for their first attempt, or, without a worker here, start calls not yet answered.',
});

export const setOutboxOldestWaitSource = sourcedGauge(
  {
    name: 'webhook_outbox_oldest_wait_seconds',
    help: 'How long the oldest accepted event of this process has waited for its workflows to start (what ingest admission compares with MAX_BACKLOG_S).',
  },
  1000,
);

export const setDispatchBacklogSource = sourcedGauge({
  name: 'webhook_dispatch_backlog',
  help: 'Dispatch tickets not yet finished (the outbox): accepted events whose deliveries are not all started.',
});

/** The rejection reason of an ingest that ended in an error with this HTTP status. */
export function ingestRejection(status: number): IngestOutcome {
  if (status === 413) return 'rejected_too_large';
  if (status === 409 || status === 422) return 'rejected_conflict';
  if (status === 503) return 'rejected_overloaded';
  if (status >= 400 && status < 500) return 'rejected_invalid';
  return 'rejected_error';
}

/** An attempt's duration, and the class of its outcome: its HTTP status, or why there was none. */
export function recordAttempt(durationMs: number, statusCode: number | null, kind: 'status' | 'confirmed' | 'timeout' | 'network'): void {
  if (kind === 'timeout' || kind === 'confirmed') countAttempt(kind);
  else if (statusCode === null || statusCode < 200 || statusCode > 599) countAttempt('network');
  else countAttempt(`${Math.floor(statusCode / 100)}xx` as (typeof ATTEMPT_STATUS_CLASSES)[number]);
  observeAttemptDuration(durationMs);
}

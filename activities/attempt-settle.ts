import type { Clock } from '../src/domain/clock';
import { decideAfterAttempt, isDelivered, recordedResult } from '../src/domain/webhooks/attempt-decision';
import { deliveryId } from '../src/domain/webhooks/delivery-id';
import { shouldDisableForFailures } from '../src/domain/webhooks/endpoint-health';
import { orderingOf } from '../src/domain/webhooks/fifo-order';
import type { DeliveryEnd } from '../src/domain/webhooks/operational-events';
import type { DeliveryAttempt, DeliveryRef } from '../src/persistence/deliveries';
import type { EndpointDoc } from '../src/persistence/endpoints';
import { recordAttempt, recordDeliveryFinished, recordFirstAttemptLatency } from '../src/infra/metrics';
import { ATTR, inSpan } from '../src/infra/tracing/spans';
import { attemptAttributes } from './attempt-attributes';
import { settleStep, type SettleStep } from './attempt-steps';
import type { AttemptInput, AttemptOutcome, DeliveryActivityDeps, DeliveryTarget } from './delivery-activities';
import { retriedWrite } from './retried-write';
import type { SendResult } from './transport';

/** Where the delivery stands in its endpoint's FIFO queue, as the gate found it (`place` absent: read when it leaves). */
export interface QueueRef {
  fifo: boolean;
  place?: number | null;
}

/** What the send step made of an attempt: when its message went, and how it ended. */
export interface Sent {
  startedAt: Date;
  result: SendResult;
}

/** What settling an attempt made: the outcome its workflow follows, and the step as the Web UI shows it (attempt-steps.ts). */
export interface Settled {
  outcome: AttemptOutcome;
  step: SettleStep;
}

/** What a delivery's end set off. */
interface Ended {
  endpointDisabled: boolean;
  leftFifoQueue: boolean;
}

export type SettleDeps = Pick<DeliveryActivityDeps, 'deliveries' | 'endpointHealth' | 'operational' | 'autoDisable' | 'fifo'> & {
  clock: Clock;
  /** The endpoint as the gate reads it (cached while enabled): whether a delivery of unknown queue was FIFO. */
  currentEndpoint: (input: DeliveryTarget) => Promise<EndpointDoc | null>;
};

/** Settle: what an attempt leaves once its end is known (its record; when the delivery ends, health, auto-disable, operational events, its FIFO place). */
export function createAttemptSettle(deps: SettleDeps) {
  /** A delivery ended: a health fact and, on failure, maybe auto-disable and operational events; each kept once if repeated. */
  async function deliveryEnded(input: AttemptInput, last: Pick<DeliveryAttempt, 'succeeded' | 'status_code' | 'error'>, at: Date, queue?: QueueRef): Promise<Ended> {
    // First: the next delivery of a FIFO endpoint waits for nothing else.
    const leftFifoQueue = await leaveQueue(input, queue);
    const key = `${deliveryId(input.eventId, input.endpointId)}#r${input.round}`;
    const { succeeded } = last;
    const health = await retriedWrite(() => deps.endpointHealth.record(input.endpointId, { kind: 'delivery', key, succeeded, at }));
    if (succeeded) return { endpointDisabled: false, leftFifoQueue };
    const endpointDisabled = shouldDisableForFailures(health, at, deps.autoDisable.afterMs);
    if (endpointDisabled) await deps.autoDisable.disable(input.accountId, input.endpointId, at);
    const lastAttempt = { attempt: input.attempt, at, statusCode: last.status_code, error: last.error };
    const end: DeliveryEnd = { accountId: input.accountId, eventId: input.eventId, eventType: input.type, endpointId: input.endpointId, round: input.round, lastAttempt };
    await deps.operational.deliveryFailed(end, health);
    return { endpointDisabled, leftFifoQueue };
  }

  /** A first round that ended leaves its FIFO place and wakes the next; `queue` unknown: read (a deleted or disabled one may have been FIFO). Whether it left one. */
  async function leaveQueue(input: DeliveryTarget, queue?: QueueRef): Promise<boolean> {
    const fifo = deps.fifo;
    if (!fifo || input.round !== 1 || queue?.fifo === false) return false;
    if (queue === undefined) {
      const endpoint = await deps.currentEndpoint(input);
      if (endpoint && !endpoint.disabled && orderingOf(endpoint) !== 'fifo') return false;
    }
    await retriedWrite(() => fifo.leave(input.eventId, input.endpointId, queue?.place));
    return true;
  }

  return {
    /** An attempt made (or unsendable): recorded with the decision on it, and settled if the delivery ended. */
    async attempt(input: AttemptInput, ref: DeliveryRef, sent: Sent, url: string, queue: QueueRef): Promise<Settled> {
      const { startedAt, result } = sent;
      const finishedAt = new Date(startedAt.getTime() + result.durationMs);
      const succeeded = isDelivered(result.outcome);
      const decision = decideAfterAttempt(input.attempt, result.outcome);
      const statusCode = result.outcome.kind === 'status' ? result.outcome.statusCode : null;
      const attempt: DeliveryAttempt = {
        round: input.round,
        attempt: input.attempt,
        started_at: startedAt,
        duration_ms: result.durationMs,
        status_code: statusCode,
        error: succeeded ? null : (result.error ?? `Destination answered HTTP ${statusCode}.`),
        response_body: result.responseBody,
        succeeded,
      };
      const outcome = () => ({ ...attemptAttributes(input), [ATTR.attemptStatus]: decision.status, ...(statusCode !== null && { [ATTR.statusCode]: statusCode }) });
      const nextAttemptAt = decision.nextDelayMs === null ? null : new Date(finishedAt.getTime() + decision.nextDelayMs);
      const state = { round: input.round, status: decision.status, attempt_count: input.attempt, next_attempt_at: nextAttemptAt, url };
      await inSpan('webhook.attempt.outcome', outcome, () => retriedWrite(() => deps.deliveries.recordAttempt(ref, attempt, state, finishedAt)));
      recordAttempt(result.durationMs, statusCode, result.outcome.kind);
      if (input.round === 1 && input.attempt === 1 && input.acceptedAt !== undefined) recordFirstAttemptLatency(startedAt.getTime() - input.acceptedAt);
      let ended: Ended | undefined;
      if (decision.status !== 'retrying') {
        recordDeliveryFinished(decision.status);
        ended = await deliveryEnded(input, attempt, finishedAt, queue);
      }
      return { outcome: { ...decision, statusCode }, step: settleStep(decision.status, decision.nextDelayMs, ended) };
    },

    /** An attempt found recorded: its decision again, and the delivery's end settled again (the run that recorded it may have stopped before). */
    async recorded(input: AttemptInput, recorded: DeliveryAttempt): Promise<Settled> {
      const decision = decideAfterAttempt(recorded.attempt, recordedResult(recorded));
      const ended = decision.status === 'retrying' ? undefined : await deliveryEnded(input, recorded, new Date(recorded.started_at.getTime() + recorded.duration_ms));
      return { outcome: { ...decision, statusCode: recorded.status_code }, step: settleStep(decision.status, decision.nextDelayMs, ended) };
    },

    /** The round ends cancelled after `attemptCount` attempts, and leaves its FIFO place. */
    async cancelled(input: DeliveryTarget, ref: DeliveryRef, attemptCount: number): Promise<SettleStep> {
      await retriedWrite(() => deps.deliveries.setState(ref, { round: input.round, status: 'cancelled', attempt_count: attemptCount, next_attempt_at: null }, deps.clock()));
      recordDeliveryFinished('cancelled');
      return settleStep('cancelled', null, { endpointDisabled: false, leftFifoQueue: await leaveQueue(input) });
    },
  };
}

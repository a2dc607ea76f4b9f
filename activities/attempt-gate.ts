import type { Clock } from '../src/domain/clock';
import { deliveryId } from '../src/domain/webhooks/delivery-id';
import type { TakenPlace } from '../src/domain/webhooks/fifo-order';
import type { HandOffStage } from '../src/infra/metrics';
import type { DeliveryAttempt, DeliveryRef } from '../src/persistence/deliveries';
import { activityAttempt, activityContext } from './activity-context';
import { createAttemptPlaces, type Throttle } from './attempt-places';
import type { Prepared } from './attempt-request';
import type { QueueRef } from './attempt-settle';
import type { AttemptInput, DeliveryActivityDeps } from './delivery-activities';
import { retriedWrite } from './retried-write';
import type { OutgoingMessage } from './transport';

/** May this attempt be sent now? Each answer a value; what Temporal is told of it is delivery-activities.ts's. */
export type GateAnswer =
  /** Made before: answered from its record, not sent again. */
  | { kind: 'recorded'; attempt: DeliveryAttempt }
  /** Not an event the platform accepted for this account, endpoint and body: nothing is signed or sent. */
  | { kind: 'not-accepted' }
  /** Nothing sent or recorded: made again once the endpoint is resumed (`paused`) or its FIFO turn comes (`queued`). */
  | { kind: 'wait'; status: 'paused' | 'queued' }
  /** The endpoint is disabled or deleted: the round ends cancelled. */
  | { kind: 'cancelled' }
  | { kind: 'throttled'; throttle: Throttle }
  /** This worker cannot sign it: a failed attempt, recorded, and the schedule goes on. */
  | { kind: 'unsendable'; url: string; error: string; queue: QueueRef }
  /** Send it now; its places are held until `leave`. */
  | { kind: 'send'; message: OutgoingMessage; queue: QueueRef; leave: () => Promise<void> };

export type GateDeps = Pick<DeliveryActivityDeps, 'deliveries' | 'events' | 'acceptanceSeal' | 'fifo' | 'slots' | 'limiter' | 'lags'> & {
  clock: Clock;
  prepare: (input: AttemptInput, fromStore?: boolean) => Promise<Prepared>;
};

const toFifo = (prepared: Prepared) => 'fifo' in prepared && prepared.fifo;

/** Gate: the record, the seal, the pause, the FIFO turn, then the places, in that order. */
export function createAttemptGate(deps: GateDeps) {
  const places = createAttemptPlaces(deps);

  /**
   * Whether the platform accepted this event for this account, endpoint and body (a forged input from anyone reaching
   * Temporal must not be signed), and whether by its seal: only a sealed input's FIFO place is taken as given.
   */
  async function wasAccepted(input: AttemptInput): Promise<false | { sealed: boolean }> {
    const { seal, body, type, timestamp, fifoPlace } = input;
    const workflowId = deliveryId(input.eventId, input.endpointId);
    // Only its own workflow: under another id a copy of its input would run beside it, answered from the real run's record.
    const context = activityContext();
    if (context && context.info.workflowExecution?.workflowId !== workflowId) return false;
    // A valid seal says it without a read. Any other (none, or under a secrets key since replaced) is checked against the store.
    if (seal !== undefined) {
      const sealed = { accountId: input.accountId, endpointId: input.endpointId, eventId: input.eventId, round: input.round, workflowId, type, timestamp, body, fifoPlace };
      if (deps.acceptanceSeal.verify(sealed, seal)) return { sealed: true };
    }
    const event = await deps.events.findUnscoped(input.eventId);
    if (!event || event.account_id !== input.accountId || !event.endpoint_ids.includes(input.endpointId)) return false;
    return event.body === body && event.type === type && event.timestamp === timestamp && { sealed: false };
  }

  /** A pause waited out, then a FIFO first attempt's turn: the request and its place, or the wait (pause first: a resumed endpoint still queues). */
  async function pauseThenTurn(input: AttemptInput, ref: DeliveryRef, prepared: Prepared, taken: TakenPlace | undefined): Promise<{ wait: 'paused' | 'queued' } | { prepared: Exclude<Prepared, { kind: 'paused' }>; place: number | null }> {
    for (;;) {
      if (prepared.kind === 'paused') {
        // Marked before the store is read again: a resume clears the flag before it lists the marked, so one of them sees this.
        await retriedWrite(() => deps.deliveries.markPaused(ref, input.round, deps.clock()));
        prepared = await deps.prepare(input, true);
        if (prepared.kind === 'paused') return { wait: 'paused' };
      }
      if (!(toFifo(prepared) && input.queued && input.round === 1 && input.attempt === 1 && deps.fifo)) return { prepared, place: null };
      const turn = await deps.fifo.turnOf(input.eventId, input.endpointId, taken);
      // Its turn at the run's first look (`acceptedAt`: it has not waited) goes on the endpoint as read, as any first attempt.
      if (turn.now && input.acceptedAt !== undefined) return { prepared, place: turn.place };
      // Else read from the store, not a cache that may lag: a turn comes when the one before ends or on a switch to unordered.
      prepared = await deps.prepare(input, true);
      if (prepared.kind === 'paused') continue;
      if (!turn.now && toFifo(prepared)) return { wait: 'queued' };
      return { prepared, place: turn.now ? turn.place : null };
    }
  }

  /** `stage` says what the attempt is doing now (what a hand-off is counted under). */
  return async function gate(input: AttemptInput, ref: DeliveryRef, stage: { now: HandOffStage }): Promise<GateAnswer> {
    if (activityAttempt() > 1 || input.mayRepeat) {
      const recorded = (await deps.deliveries.find(ref.id))?.attempts.find((a) => a.round === input.round && a.attempt === input.attempt);
      if (recorded) return { kind: 'recorded', attempt: recorded };
    }
    // Decided first, on every attempt (the first may be answered from a record): a forged input the request cannot even be prepared from fails as not accepted.
    const [preparing, accepting] = await Promise.allSettled([deps.prepare(input), wasAccepted(input)]);
    if (accepting.status === 'rejected') throw accepting.reason;
    if (!accepting.value) return { kind: 'not-accepted' };
    if (preparing.status === 'rejected') throw preparing.reason;
    const ready = await pauseThenTurn(input, ref, preparing.value, accepting.value.sealed ? input.fifoPlace : undefined);
    if ('wait' in ready) return { kind: 'wait', status: ready.wait };
    const { prepared, place } = ready;
    if (prepared.kind === 'cancelled') return { kind: 'cancelled' };
    const queue = { fifo: prepared.fifo, place };
    if (prepared.kind === 'unsendable') return { kind: 'unsendable', url: prepared.url, error: prepared.error, queue };
    stage.now = 'place';
    const entered = await places.enter(input, prepared.limits);
    if ('throttled' in entered) return { kind: 'throttled', throttle: entered.throttled };
    return { kind: 'send', message: prepared.message, queue, leave: entered.leave };
  };
}

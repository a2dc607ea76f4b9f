import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { type Clock, systemClock } from '../src/domain/clock';
import type { AccountLags } from '../src/domain/flow-control/account-lags';
import type { AcceptanceSeal } from '../src/domain/webhooks/acceptance-seal';
import type { AttemptDecision } from '../src/domain/webhooks/attempt-decision';
import type { AttemptSlots } from '../src/domain/webhooks/attempt-slots';
import { deliveryId } from '../src/domain/webhooks/delivery-id';
import type { DeliveryStatus } from '../src/domain/webhooks/delivery-status';
import type { HealthSummary } from '../src/domain/webhooks/endpoint-health';
import type { TakenPlace } from '../src/domain/webhooks/fifo-order';
import type { DeliveryEnd } from '../src/domain/webhooks/operational-events';
import type { SecretBox } from '../src/domain/webhooks/secret-box';
import { recordAttemptThrottled, recordHandOff, type HandOffStage } from '../src/infra/metrics';
import { annotateActive } from '../src/infra/tracing/spans';
import type { Deliveries, DeliveryRef } from '../src/persistence/deliveries';
import type { EndpointHealthLog } from '../src/persistence/endpoint-health-log';
import type { EndpointDoc, Endpoints } from '../src/persistence/endpoints';
import type { Events } from '../src/persistence/events';
import { activityContext } from './activity-context';
import { attemptAttributes } from './attempt-attributes';
import { createAttemptGate, type GateAnswer } from './attempt-gate';
import type { AttemptHandOffs } from './attempt-hand-off';
import type { AttemptHolds } from './attempt-holds';
import type { Throttle } from './attempt-places';
import { createAttemptRequests } from './attempt-request';
import { createAttemptSettle, type Sent } from './attempt-settle';
import { gateStep, sendStep, type AttemptSteps, type GateStep, type HandedOffSteps } from './attempt-steps';
import type { EndpointLimiter } from './endpoint-limiter';
import { failed, type Transport } from './transport';

/** What a delivery workflow carries: the event itself, so an attempt reads only the endpoint. */
export interface DeliveryTarget {
  eventId: number;
  endpointId: string;
  accountId: string;
  round: number;
  type: string;
  timestamp: number;
  /** The exact body bytes every attempt sends. */
  body: string;
  /** When the event was accepted (ms since the epoch), for the ingest-to-first-attempt metric. */
  acceptedAt?: number;
  /** Its place in a FIFO endpoint's queue as taken at ingest, with the head then: sealed, it spares its turn's reads. */
  fifoPlace?: TakenPlace;
  /** The platform's seal over the fields above (acceptance-seal.ts); absent without the secrets key. */
  seal?: string;
}

export interface AttemptInput extends DeliveryTarget {
  attempt: number;
  /** Local first attempt whose task is a retry (an earlier try may have posted): the record is read first. */
  mayRepeat?: boolean;
  /** Local first attempt: a POST unanswered this long is handed off (attempt-hand-off.ts), unless held. */
  handOffAfterMs?: number;
  /** How long it may keep its task if this process has room (first-attempt-budget.ts); absent: no hold. */
  holdUpToMs?: number;
  /** Set by workflow code that waits out a pause: a paused endpoint answers `paused` (absent: it is sent). */
  pausable?: boolean;
  /** Set by workflow code that waits a FIFO turn: a first attempt before its turn answers `queued` (absent: it is sent). */
  queued?: boolean;
}

/** The decision on an attempt (attempt-decision.ts); or `cancelled`; or `paused` / `queued`: nothing sent or recorded, made again once resumed / woken. */
export type AttemptOutcome = (
  | AttemptDecision
  | { status: Extract<DeliveryStatus, 'cancelled'>; nextDelayMs: null }
  | { status: 'paused'; nextDelayMs: null }
  | { status: 'queued'; nextDelayMs: null }
) & {
  statusCode: number | null;
  /** For people reading the run's history (attempt-steps.ts); absent from runs of older code. Workflow code never reads it. */
  steps?: AttemptSteps;
};

/** A local first attempt whose send goes on in this process (attempt-hand-off.ts). */
export type HandedOff = { status: 'handed-off'; steps?: HandedOffSteps };

/** What an attempt is doing now (what a hand-off is counted under), and the gate's answer once it has one. */
type Progress = { now: HandOffStage; gate?: GateStep };

/** The failure type of an attempt that found its account's or endpoint's places taken (retried by Temporal, not counted: attempt-places.ts). */
export const THROTTLED = 'AttemptThrottled';

export interface DeliveryActivityDeps {
  endpoints: Endpoints;
  events: Events;
  deliveries: Deliveries;
  secretBox: SecretBox;
  /** The transport the attempt's message goes by (HTTPS: http-sender.ts). */
  sender: Transport;
  endpointHealth: Pick<EndpointHealthLog, 'record'>;
  /** Emits the operational events a failed delivery calls for (EventService.deliveryFailed). */
  operational: { deliveryFailed(end: DeliveryEnd, health: HealthSummary): Promise<void> };
  /** The auto-disable rule's period (ENDPOINT_AUTO_DISABLE_HOURS) and what disabling does (cancels pending retries). */
  autoDisable: { afterMs: number; disable: (accountId: string, endpointId: string, decidedAt: Date) => Promise<void> };
  clock?: Clock;
  handOffs: AttemptHandOffs;
  holds: AttemptHolds;
  /** This process's cache of enabled endpoints (account-endpoints-cache.ts). */
  enabledEndpoints: (accountId: string) => Promise<EndpointDoc[]>;
  acceptanceSeal: AcceptanceSeal;
  /** What one account and one endpoint may have in flight at once in this process. */
  slots: AttemptSlots;
  limiter: Pick<EndpointLimiter, 'enter'>;
  /** Told how late each first attempt is when it gets its place or is told to wait (WorkerLoadPublisher in lagging-accounts.ts publishes it). */
  lags: Pick<AccountLags, 'record'>;
  /** The turns of FIFO endpoints' deliveries (src/services/fifo-turns.ts); without it, every endpoint is unordered (unit tests: a fake would add store reads). */
  fifo?: {
    /** Whether the delivery's first attempt may be made now, and its place (null: none). */
    turnOf(eventId: number, endpointId: string, taken?: TakenPlace): Promise<{ place: number | null; now: boolean }>;
    /** The delivery ended: it leaves its place (`known`, else read) and wakes the next. */
    leave(eventId: number, endpointId: string, known?: number | null): Promise<void>;
  };
}

/** A delivery's I/O, on injected deps; workflows import only the types. An attempt: gate, send, settle. */
export function createDeliveryActivities(deps: DeliveryActivityDeps) {
  const clock = deps.clock ?? systemClock;
  const requests = createAttemptRequests({ ...deps, clock });
  const gate = createAttemptGate({ ...deps, clock, prepare: requests.prepare });
  const settle = createAttemptSettle({ ...deps, clock, currentEndpoint: requests.currentEndpoint });

  /** Send: the message by its transport, its places held until it has ended. */
  async function send(go: Extract<GateAnswer, { kind: 'send' }>, stage: { now: HandOffStage }): Promise<Sent> {
    // A regular attempt heartbeats while the receiver answers (within its 8 s heartbeat timeout); a local one has none (its workflow task times out instead).
    const context = activityContext();
    const beat = context && !context.info.isLocal ? setInterval(() => context.heartbeat(), 2_000) : undefined;
    try {
      const startedAt = clock();
      stage.now = 'post';
      return { startedAt, result: await deps.sender.send(go.message) };
    } finally {
      clearInterval(beat);
      stage.now = 'store';
      await go.leave();
    }
  }

  /** The whole attempt: gate, send, settle, each step told in its outcome; the gate's answers that are not a send told to the workflow, or to Temporal (its failure's details). */
  async function attemptOnce(input: AttemptInput, progress: Progress): Promise<AttemptOutcome & { steps: AttemptSteps }> {
    const ref = refOf(input);
    const gated = await gate(input, ref, progress);
    const steps: AttemptSteps = { gate: (progress.gate = gateStep(gated)) };
    switch (gated.kind) {
      case 'recorded': {
        const settled = await settle.recorded(input, gated.attempt);
        return { ...settled.outcome, steps: { ...steps, settle: settled.step } };
      }
      case 'not-accepted':
        throw ApplicationFailure.nonRetryable(
          `Event ${input.eventId} was not accepted by the platform for account ${input.accountId} and endpoint ${input.endpointId} with this body: nothing was sent.`,
          'DeliveryNotAccepted',
          steps,
        );
      case 'wait':
        return { status: gated.status, nextDelayMs: null, statusCode: null, steps };
      case 'cancelled':
        steps.settle = await settle.cancelled(input, ref, input.attempt - 1);
        return { status: 'cancelled', nextDelayMs: null, statusCode: null, steps };
      case 'throttled':
        throw throttled(gated.throttle, steps);
      case 'unsendable': {
        const settled = await settle.attempt(input, ref, { startedAt: clock(), result: failed('network', gated.error, 0) }, gated.url, gated.queue);
        return { ...settled.outcome, steps: { ...steps, settle: settled.step } };
      }
      case 'send': {
        const sent = await send(gated, progress);
        const settled = await settle.attempt(input, ref, sent, gated.message.url, gated.queue);
        return { ...settled.outcome, steps: { ...steps, send: sendStep(gated.message, sent.result), settle: settled.step } };
      }
    }
  }

  return {
    /** One attempt, keyed by round and attempt (a repeat is answered from the record); `handed-off`: its POST goes on here, which reports it. */
    async attemptDelivery(input: AttemptInput): Promise<AttemptOutcome | HandedOff> {
      // The budget covers store reads too: a slow store must not hold the task any more than a slow receiver.
      const progress: Progress = { now: 'store' };
      annotateActive(() => attemptAttributes(input));
      const finishing = attemptOnce(input, progress);
      if (input.handOffAfterMs === undefined) return finishing;
      let outcome = await within(finishing, input.handOffAfterMs);
      // A slow receiver keeps the task while this process has room: it then costs what a fast one does.
      const holdMore = (input.holdUpToMs ?? 0) - input.handOffAfterMs;
      const hold = outcome === BUDGET_SPENT && holdMore > 0 ? deps.holds.hold() : null;
      if (hold) outcome = await within(finishing, holdMore, hold.ended).finally(hold.release);
      if (outcome !== BUDGET_SPENT) return outcome;
      recordHandOff(progress.now);
      const runId = activityContext()?.info.workflowExecution?.runId;
      deps.handOffs.report({ workflowId: deliveryId(input.eventId, input.endpointId), runId }, input, finishing);
      return { status: 'handed-off', steps: { ...(progress.gate && { gate: progress.gate }), handedOffDuring: progress.now } };
    },

    async cancelDelivery(input: DeliveryTarget): Promise<void> {
      const current = await deps.deliveries.find(refOf(input).id);
      if (current && (current.round !== input.round || current.status === 'succeeded' || current.status === 'failed')) return;
      await settle.cancelled(input, refOf(input), current?.attempt_count ?? 0);
    },
  };
}

export type DeliveryActivities = ReturnType<typeof createDeliveryActivities>;

const BUDGET_SPENT = Symbol('budget spent');

/** What `work` settles to within `ms` (and before `cutShort`, if given), or BUDGET_SPENT (it goes on either way). */
async function within<T>(work: Promise<T>, ms: number, cutShort?: Promise<void>): Promise<T | typeof BUDGET_SPENT> {
  let timer: NodeJS.Timeout | undefined;
  const spent = new Promise<typeof BUDGET_SPENT>((resolve) => (timer = setTimeout(() => resolve(BUDGET_SPENT), ms)));
  try {
    const cut = cutShort?.then((): typeof BUDGET_SPENT => BUDGET_SPENT);
    return await Promise.race(cut ? [work, spent, cut] : [work, spent]);
  } finally {
    clearTimeout(timer);
  }
}

function refOf(input: DeliveryTarget): DeliveryRef {
  return { id: deliveryId(input.eventId, input.endpointId), account_id: input.accountId, event_id: input.eventId, endpoint_id: input.endpointId };
}

/** Retried by Temporal on a timer (same attempt number), holding no task or slot meanwhile. */
function throttled(throttle: Throttle, steps: AttemptSteps): ApplicationFailure {
  recordAttemptThrottled(throttle.limit);
  return ApplicationFailure.create({
    message: throttle.message,
    type: THROTTLED,
    details: [steps],
    nextRetryDelay: throttle.delayMs,
    // Flow control, not a fault: the SDK logs it at debug, not a warning per throttled attempt.
    category: ApplicationFailureCategory.BENIGN,
  });
}

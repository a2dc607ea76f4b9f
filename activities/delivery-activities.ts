import { type Clock, systemClock } from '../src/domain/clock';
import { asyncLocalStorage } from '@temporalio/activity';
import type { AttemptDecision } from '../src/domain/webhooks/attempt-decision';
import type { AttemptSlots } from '../src/domain/webhooks/attempt-slots';
import type { AccountLags } from '../src/domain/flow-control/account-lags';
import { buildDeliveryHeaders } from '../src/domain/webhooks/delivery-request';
import type { DeliveryStatus } from '../src/domain/webhooks/delivery-status';
import type { AcceptanceSeal } from '../src/domain/webhooks/acceptance-seal';
import type { SecretBox } from '../src/domain/webhooks/secret-box';
import { secretsInGrace } from '../src/domain/webhooks/secret-rotation';
import { signPayload, signStandard } from '../src/domain/webhooks/signature';
import type { Deliveries, DeliveryRef } from '../src/persistence/deliveries';
import { deliveryId } from '../src/domain/webhooks/delivery-id';
import type { EndpointHealthLog } from '../src/persistence/endpoint-health-log';
import type { EndpointDoc, Endpoints } from '../src/persistence/endpoints';
import type { Events } from '../src/persistence/events';
import { annotateActive } from '../src/infra/tracing/spans';
import { recordAttemptThrottled, recordHandOff, type HandOffStage, type ThrottleLimit } from '../src/infra/metrics';
import type { AttemptHandOffs } from './attempt-hand-off';
import type { EndpointLimiter } from './endpoint-limiter';
import { limitsOf, refusalMessage, type EndpointLimits } from '../src/domain/webhooks/endpoint-limits';
import type { AttemptHolds } from './attempt-holds';
import { failed, type SendResult, type Transport } from './transport';
import { attemptAttributes } from './attempt-attributes';
import { createAttemptSettle } from './attempt-settle';
import { retriedWrite } from './retried-write';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import type { DeliveryEnd } from '../src/domain/webhooks/operational-events';
import type { HealthSummary } from '../src/domain/webhooks/endpoint-health';
import { orderingOf } from '../src/domain/webhooks/fifo-order';

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
};

/** The failure type of an attempt that found its account's or endpoint's places taken (retried by Temporal, not counted). */
export const THROTTLED = 'AttemptThrottled';

/** A quick receiver frees a place within it, a hung one does not. Not at once: a timer and a workflow task per throttled attempt cost deliveries (bench:delivery, BENCHMARKS.md). */
const THROTTLE_WAIT_MS = 250;

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
    turnOf(eventId: number, endpointId: string): Promise<{ place: number | null; now: boolean }>;
    /** The delivery ended: it leaves its place (`known`, else read) and wakes the next. */
    leave(eventId: number, endpointId: string, known?: number | null): Promise<void>;
  };
}

type Prepared =
  | { kind: 'cancelled' }
  | { kind: 'paused' }
  | { kind: 'send'; url: string; headers: Record<string, string>; body: string; limits: EndpointLimits | null; fifo: boolean }
  | { kind: 'unsendable'; url: string; error: string; fifo: boolean };

const toFifo = (prepared: Prepared) => 'fifo' in prepared && prepared.fifo;

/** A delivery's I/O, on injected deps; workflows import only the types. An attempt: prepare, send, record. */
export function createDeliveryActivities(deps: DeliveryActivityDeps) {
  const clock = deps.clock ?? systemClock;

  /** An enabled endpoint from the cache, else read: a disabled or deleted one is always seen as such. */
  async function currentEndpoint(input: DeliveryTarget): Promise<EndpointDoc | null> {
    const cached = (await deps.enabledEndpoints(input.accountId)).find((e) => e._id === input.endpointId);
    return cached || deps.endpoints.find(input.accountId, input.endpointId);
  }
  const settle = createAttemptSettle({ ...deps, clock, currentEndpoint });

  /** The request as the endpoint now is (read from the store itself with `fromStore`): a rotated secret, a changed URL. */
  async function prepare(input: AttemptInput, fromStore = false): Promise<Prepared> {
    const endpoint = fromStore ? await deps.endpoints.find(input.accountId, input.endpointId) : await currentEndpoint(input);
    if (!endpoint || endpoint.disabled) return { kind: 'cancelled' };
    if (endpoint.paused && input.pausable) return { kind: 'paused' };
    const now = clock();
    const fifo = orderingOf(endpoint) === 'fifo';
    let secrets: string[];
    try {
      // Newest first: the current secret, then those still in their rotation grace at this attempt.
      secrets = [endpoint.secret_sealed, ...secretsInGrace(endpoint, now).map((s) => s.sealed)].map((sealed) => deps.secretBox.open(sealed));
    } catch {
      // No retry of this activity can fix it: record a failed attempt and let the schedule go on.
      return {
        kind: 'unsendable',
        url: endpoint.url,
        fifo,
        error: "The endpoint's signing secret cannot be opened with this worker's SECRETS_ENCRYPTION_KEY (every API and worker process must use the same key).",
      };
    }
    const attemptTimestamp = Math.floor(now.getTime() / 1000);
    const headers = buildDeliveryHeaders({
      id: input.eventId,
      type: input.type,
      timestamp: input.timestamp,
      signature: signPayload(secrets[0] as string, input.body),
      attemptTimestamp,
      standardSignature: signStandard(secrets, String(input.eventId), attemptTimestamp, input.body),
    });
    return { kind: 'send', url: endpoint.url, headers: { ...headers }, body: input.body, limits: limitsOf(endpoint), fifo };
  }

  /** A place among this account's and endpoint's attempts in flight, through lookup and POST; none free in time: throttled. */
  async function enterSlot(input: AttemptInput, limited: boolean) {
    const delivery = deliveryId(input.eventId, input.endpointId);
    const leave = await deps.slots.enter(input.accountId, input.endpointId, THROTTLE_WAIT_MS, delivery);
    // A limited endpoint's retried try may have waited for its own limits: not the platform's lateness, so not counted.
    const countsLag = input.round === 1 && input.attempt === 1 && input.acceptedAt !== undefined && !(limited && activityAttempt() > 1);
    if (countsLag) deps.lags.record(input.accountId, clock().getTime() - (input.acceptedAt as number));
    if (leave) return leave;
    throw throttled(
      'places',
      `Account ${input.accountId} has ${deps.slots.inFlight(input.accountId)} attempts in flight in this process (or its endpoint ${input.endpointId} its most): attempt ${input.attempt} waits its turn.`,
      deps.slots.throttle(input.accountId, delivery, activityAttempt(), Math.random()),
    );
  }

  /** A place within the endpoint's own limits (none: costs nothing), after the process's; over a limit: throttled. */
  async function enterLimits(input: AttemptInput, limits: EndpointLimits | null, leaveSlot: () => void): Promise<(() => Promise<void>) | null> {
    if (!limits) return null;
    const entered = await deps.limiter.enter(input.endpointId, limits, deliveryId(input.eventId, input.endpointId), activityAttempt()).catch((err: unknown) => {
      leaveSlot();
      throw err;
    });
    if ('leave' in entered) return entered.leave;
    leaveSlot();
    throw throttled('endpoint_limits', `Endpoint ${input.endpointId} ${refusalMessage(entered.refused, limits)}: attempt ${input.attempt} waits its turn.`, entered.waitMs);
  }

  /** Retried by Temporal on a timer (same attempt number), holding no task or slot meanwhile. */
  function throttled(limit: ThrottleLimit, message: string, delayMs: number): ApplicationFailure {
    recordAttemptThrottled(limit);
    return ApplicationFailure.create({
      message,
      type: THROTTLED,
      nextRetryDelay: delayMs,
      // Flow control, not a fault: the SDK logs it at debug, not a warning per throttled attempt.
      category: ApplicationFailureCategory.BENIGN,
    });
  }

  /** Whether the platform accepted this event for this account, endpoint and body: a forged input from anyone reaching Temporal must not be signed. */
  async function wasAccepted(input: AttemptInput): Promise<boolean> {
    const { seal, body, type, timestamp } = input;
    const workflowId = deliveryId(input.eventId, input.endpointId);
    // Only its own workflow: under another id a copy of its input would run beside it, answered from the real run's record.
    const context = activityContext();
    if (context && context.info.workflowExecution?.workflowId !== workflowId) return false;
    // A valid seal says it without a read. Any other (none, or under a secrets key since replaced) is checked against the store.
    if (seal !== undefined) {
      const sealed = { accountId: input.accountId, endpointId: input.endpointId, eventId: input.eventId, round: input.round, workflowId, type, timestamp, body };
      if (deps.acceptanceSeal.verify(sealed, seal)) return true;
    }
    const event = await deps.events.findUnscoped(input.eventId);
    if (!event || event.account_id !== input.accountId || !event.endpoint_ids.includes(input.endpointId)) return false;
    return event.body === body && event.type === type && event.timestamp === timestamp;
  }

  async function sendAndRecord(
    input: AttemptInput,
    ref: DeliveryRef,
    prepared: Prepared & { kind: 'send' | 'unsendable' },
    stage: { now: HandOffStage },
    place: number | null,
  ): Promise<AttemptOutcome> {
    let startedAt = clock();
    let result: SendResult;
    if (prepared.kind === 'send') {
      stage.now = 'place';
      const leave = await enterSlot(input, prepared.limits !== null);
      const leaveLimits = await enterLimits(input, prepared.limits, leave);
      // A regular attempt heartbeats while the receiver answers (within its 8 s heartbeat timeout); a local one has none (its workflow task times out instead).
      const context = activityContext();
      const beat = context && !context.info.isLocal ? setInterval(() => context.heartbeat(), 2_000) : undefined;
      try {
        startedAt = clock();
        stage.now = 'post';
        result = await deps.sender.send({ url: prepared.url, headers: prepared.headers, body: prepared.body });
      } finally {
        clearInterval(beat);
        leave();
        stage.now = 'store';
        await leaveLimits?.();
      }
    } else {
      result = failed('network', prepared.error, 0);
    }
    return settle.attempt(input, ref, { startedAt, result }, prepared.url, { fifo: prepared.fifo, place });
  }

  /** A pause waited out, then a FIFO first attempt's turn: the request and its place, or a waiting outcome (pause first: a resumed endpoint still queues). */
  async function pauseThenTurn(input: AttemptInput, ref: DeliveryRef, prepared: Prepared): Promise<AttemptOutcome | { prepared: Exclude<Prepared, { kind: 'paused' }>; place: number | null }> {
    for (;;) {
      if (prepared.kind === 'paused') {
        // Marked before the store is read again: a resume clears the flag before it lists the marked, so one of them sees this.
        await retriedWrite(() => deps.deliveries.markPaused(ref, input.round, clock()));
        prepared = await prepare(input, true);
        if (prepared.kind === 'paused') return { status: 'paused', nextDelayMs: null, statusCode: null };
      }
      if (!(toFifo(prepared) && input.queued && input.round === 1 && input.attempt === 1 && deps.fifo)) return { prepared, place: null };
      const turn = await deps.fifo.turnOf(input.eventId, input.endpointId);
      // Its turn at the run's first look (`acceptedAt`: it has not waited) goes on the endpoint as read, as any first attempt.
      if (turn.now && input.acceptedAt !== undefined) return { prepared, place: turn.place };
      // Else read from the store, not a cache that may lag: a turn comes when the one before ends or on a switch to unordered.
      prepared = await prepare(input, true);
      if (prepared.kind === 'paused') continue;
      if (!turn.now && toFifo(prepared)) return { status: 'queued', nextDelayMs: null, statusCode: null };
      return { prepared, place: turn.now ? turn.place : null };
    }
  }

  /** The whole attempt; `stage` says what it is doing now (what a hand-off is counted under). */
  async function attemptOnce(input: AttemptInput, stage: { now: HandOffStage }): Promise<AttemptOutcome> {
    const ref = refOf(input);
    if (activityAttempt() > 1 || input.mayRepeat) {
      const recorded = (await deps.deliveries.find(ref.id))?.attempts.find((a) => a.round === input.round && a.attempt === input.attempt);
      if (recorded) return settle.recorded(input, recorded);
    }
    // Decided first, on every attempt (the first may be answered from a record): a forged input the request cannot even be prepared from fails as not accepted.
    const [preparing, accepting] = await Promise.allSettled([prepare(input), wasAccepted(input)]);
    if (accepting.status === 'rejected') throw accepting.reason;
    if (!accepting.value) {
      throw ApplicationFailure.nonRetryable(
        `Event ${input.eventId} was not accepted by the platform for account ${input.accountId} and endpoint ${input.endpointId} with this body: nothing was sent.`,
        'DeliveryNotAccepted',
      );
    }
    if (preparing.status === 'rejected') throw preparing.reason;
    const ready = await pauseThenTurn(input, ref, preparing.value);
    if ('status' in ready) return ready;
    const { prepared, place } = ready;
    if (prepared.kind === 'cancelled') {
      await settle.cancelled(input, ref, input.attempt - 1);
      return { status: 'cancelled', nextDelayMs: null, statusCode: null };
    }
    return sendAndRecord(input, ref, prepared, stage, place);
  }

  return {
    /** One attempt, keyed by round and attempt (a repeat is answered from the record); `handed-off`: its POST goes on here, which reports it. */
    async attemptDelivery(input: AttemptInput): Promise<AttemptOutcome | { status: 'handed-off' }> {
      // The budget covers store reads too: a slow store must not hold the task any more than a slow receiver.
      const stage: { now: HandOffStage } = { now: 'store' };
      annotateActive(() => attemptAttributes(input));
      const finishing = attemptOnce(input, stage);
      if (input.handOffAfterMs === undefined) return finishing;
      let outcome = await within(finishing, input.handOffAfterMs);
      // A slow receiver keeps the task while this process has room: it then costs what a fast one does.
      const holdMore = (input.holdUpToMs ?? 0) - input.handOffAfterMs;
      const hold = outcome === BUDGET_SPENT && holdMore > 0 ? deps.holds.hold() : null;
      if (hold) outcome = await within(finishing, holdMore, hold.ended).finally(hold.release);
      if (outcome !== BUDGET_SPENT) return outcome;
      recordHandOff(stage.now);
      const runId = activityContext()?.info.workflowExecution?.runId;
      deps.handOffs.report({ workflowId: deliveryId(input.eventId, input.endpointId), runId }, input, finishing);
      return { status: 'handed-off' };
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

/** Outside an activity (unit tests) there is none. */
const activityContext = () => asyncLocalStorage.getStore();

function activityAttempt(): number {
  return activityContext()?.info.attempt ?? 1;
}

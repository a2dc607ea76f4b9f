import { z } from 'zod';
import type { Clock } from '../domain/clock';
import { DomainError, ValidationError } from '../domain/errors';
import { buildDeliveryBody } from '../domain/webhooks/delivery-request';
import { stringifyExact } from '../domain/webhooks/exact-json';
import { deriveEventStatus, EventStatus, isFinishedDeliveryStatus, isManuallyRetryable, MAX_DELIVERY_ROUNDS } from '../domain/webhooks/delivery-status';
import { isPlatformEventType, matchesAny, PLATFORM_EVENT_PREFIX } from '../domain/webhooks/event-pattern';
import { deliveryId, eventIdOfDelivery } from '../domain/webhooks/delivery-id';
import type { HealthSummary } from '../domain/webhooks/endpoint-health';
import { parseEventId } from '../domain/webhooks/event-id';
import { keyScopeOf } from '../domain/webhooks/idempotency-key';
import { type DeliveryEnd, noticesForFailedDelivery, type NoticeRules } from '../domain/webhooks/operational-events';
import { MAX_RECOVERY_DELIVERIES, recoverySinceProblem } from '../domain/webhooks/recovery';
import type { Deliveries, DeliveryDoc } from '../persistence/deliveries';
import type { Endpoints } from '../persistence/endpoints';
import { EventInsertUnanswered, type EventDoc, type EventListPosition, type Events } from '../persistence/events';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { EventTypeSchemas } from './event-type-schemas';
import type { OperationalNoticeClaims } from '../persistence/operational-notice-claims';
import type { DeliveryScheduler } from '../temporal/delivery-scheduler';
import type { RecoveryRun, RecoveryScheduler } from '../temporal/recovery-scheduler';
import type { AccountEndpointsCache } from './account-endpoints-cache';
import type { DeliveryOutbox } from './delivery-outbox';
import { requireEndpoint } from './endpoint-service';
import type { IngestTicket } from './ingest-admission';
import type { InstanceLease } from './instance-lease';
import { ingestResponse, settleKey, settleUnansweredInsert } from './key-settlement';
import { decodeCursor, encodeCursor } from './pagination';
import type { FifoTurns } from './fifo-turns';
import { orderingOf } from '../domain/webhooks/fifo-order';
import { annotateIngest, ATTR, currentTraceparent } from '../infra/tracing/spans';
import { ownerOf, sameTenant, type RecordOwner } from '../domain/webhooks/tenant';

/** CONTRACT §4: serialized `data` over 256 KiB is refused with 413. */
export const MAX_EVENT_DATA_BYTES = 256 * 1024;
/** How long a retry's claimer may take to start its round (two writes, one Temporal start) before another retry takes it over. */
export const ROUND_START_GRACE_MS = 60_000;
/** A page of events ends early once it carries this much event data (next_cursor continues). */
export const MAX_LIST_PAGE_DATA_BYTES = 1024 * 1024;
/** With a filter (type or status), at most this many events are examined per call (next_cursor continues). */
export const MAX_LIST_SCAN = 200;
/** Event bodies read at once while a page fills (up to 256 KiB each). */
const BODY_READS_AT_ONCE = 4;
/** The most deliveries one bulk retry-now wakes (or finds no longer waiting); `next_cursor` continues. */
export const MAX_RETRY_NOW_PER_CALL = 100;
/** Deliveries woken at once by a bulk retry-now, so one call does not flood Temporal. */
const RETRY_NOW_AT_ONCE = 10;
/** How long a retry-now call (one delivery or a bulk one) waits for the deliveries' workers to take it: past it, 503. */
export const RETRY_NOW_ANSWER_MS = 10_000;

const RetryNowCursor = z.object({ after: z.string() });
const EventListCursor = z.object({ s: z.number().int().nonnegative() });

export interface IngestInput {
  type: string;
  data: Record<string, unknown>;
  idempotency_key?: string;
  /** Delivered to this tenant's matching endpoints only; absent: to the account's own (tenant.ts). */
  tenant_id?: string;
}

export interface IngestResult {
  /** 202 for a new event, 200 for a repeat of an idempotency key. */
  created: boolean;
  body: Record<string, unknown>;
  /** A new event: settles once its delivery workflows are started. */
  started?: Promise<void>;
}

export type DeliveryView = ReturnType<typeof deliveryView>;
export type EventView = ReturnType<typeof eventView>;

export interface EventServiceDeps {
  events: Events;
  endpoints: Endpoints;
  deliveries: Deliveries;
  idempotency: IdempotencyRecords;
  endpointsCache: AccountEndpointsCache;
  /** Ingest's check of `data` against the account's catalog (operational events are never in one). */
  eventTypeSchemas: Pick<EventTypeSchemas, 'check'>;
  outbox: DeliveryOutbox;
  lease: InstanceLease;
  scheduler: DeliveryScheduler;
  recoveries: RecoveryScheduler;
  fifo: Pick<FifoTurns, 'placesFor'>;
  operationalNoticeClaims: Pick<OperationalNoticeClaims, 'claimHour'>;
  noticeRules: NoticeRules;
  clock: Clock;
}

export class EventService {
  constructor(private readonly deps: EventServiceDeps) {}

  /** Answered once the event and its key claim are stored; the outbox (or, if this process dies, crash recovery) starts its workflows. */
  async ingest(ticket: IngestTicket, input: IngestInput): Promise<IngestResult> {
    if (isPlatformEventType(input.type)) {
      throw new DomainError('reserved_event_type', `Event types starting "${PLATFORM_EVENT_PREFIX}" are emitted by the platform only.`);
    }
    if (Buffer.byteLength(stringifyExact(input.data), 'utf8') > MAX_EVENT_DATA_BYTES) {
      throw new DomainError('payload_too_large', 'Event data exceeds 256 KiB when serialized.');
    }
    // Before the idempotency lookup, as the other body checks: a refused body stores nothing and claims no key.
    await this.deps.eventTypeSchemas.check(ticket.accountId, input.type, input.data);
    return this.counted(ticket.accountId, input);
  }

  /** No admission, limits or quota; keyed, so the activity's retry starts what the first try left unstarted (no lease needed). */
  async emitPlatformEvent(accountId: string, input: IngestInput & { idempotency_key: string }): Promise<void> {
    if (!isPlatformEventType(input.type)) throw new Error(`not an operational event type: ${input.type}`);
    const result = await this.counted(accountId, input);
    if (result.started) return result.started;
    const event = await this.deps.events.find(accountId, result.body.id as number);
    if (event) await this.deps.outbox.enqueue(event);
  }

  /** Operational events, after the health fact and auto-disable rule (`health`: the summary after); each keyed, so a retried activity emits none twice. */
  async deliveryFailed(end: DeliveryEnd, health: HealthSummary): Promise<void> {
    const endpoint = await this.deps.endpoints.find(end.accountId, end.endpointId);
    if (!endpoint) return;
    const claims = this.deps.operationalNoticeClaims;
    const by = `${end.eventId}:${end.endpointId}:${end.round}`;
    for (const notice of noticesForFailedDelivery(end, endpoint, health, this.deps.noticeRules)) {
      if (notice.onceAnHour && !(await claims.claimHour(notice.type, notice.onceAnHour.endpointId, notice.onceAnHour.hourStart, by))) continue;
      if (notice.ofEvent && !(await this.deps.events.claimNotice(notice.ofEvent.eventId, notice.type, notice.ofEvent.max, by))) continue;
      await this.emitPlatformEvent(end.accountId, { type: notice.type, data: notice.data, idempotency_key: notice.key });
    }
  }

  /** A stop's cut call may still store its event: counted, so the stop keeps the lease for crash recovery. */
  private async counted(accountId: string, input: IngestInput): Promise<IngestResult> {
    const ended = this.deps.outbox.awaiting.ingestBegins();
    try {
      const key = input.idempotency_key ?? null;
      // Concurrent repeats each store an event; the key's unique record picks one, and the others delete theirs (settleKey).
      const existing = key === null ? null : await this.deps.idempotency.find(keyScopeOf(accountId, input), key);
      if (existing && existing.expires_at > this.deps.clock()) return { created: false, body: existing.response };
      return await this.accept(accountId, input, key);
    } finally {
      ended();
    }
  }

  private async accept(accountId: string, input: IngestInput, key: string | null): Promise<IngestResult> {
    const { outbox } = this.deps;
    const matching = (await this.deps.endpointsCache.enabled(accountId)).filter((e) => sameTenant(e.tenant_id, input.tenant_id) && matchesAny(e.events, input.type));
    // Places are taken before the event is stored, so an acknowledged event is behind every one acknowledged before it.
    const ordered = matching.filter((e) => orderingOf(e) === 'fifo').map((e) => e._id);
    const placesFor = ordered.length > 0 ? (id: number) => this.deps.fifo.placesFor(ordered, id) : undefined;
    const now = this.deps.clock();
    const timestamp = Math.floor(now.getTime() / 1000);
    const traceparent = currentTraceparent();
    let event: EventDoc | undefined;
    try {
      event = await this.deps.events.insertWithNextId(
        {
          account_id: accountId,
          ...(input.tenant_id !== undefined && { tenant_id: input.tenant_id }),
          type: input.type,
          data: input.data,
          timestamp,
          idempotency_key: key,
          endpoint_ids: matching.map((e) => e._id),
          endpoint_urls: matching.map((e) => e.url),
          created_at: now,
          ...(traceparent && { traceparent }),
        },
        (id) => buildDeliveryBody({ id, type: input.type, data: input.data, timestamp }),
        { instanceId: this.deps.lease.id, awaiting: outbox.awaiting },
        placesFor,
      );
      if (key !== null) {
        const settled = await settleKey(this.deps, event);
        if (settled.answers === 'another') return { created: false, body: settled.response };
      }
    } catch (err) {
      const unanswered = err instanceof EventInsertUnanswered ? err.event : event;
      if (!unanswered) throw err;
      // The insert or the key's claim may have landed with its answer lost: settled in the background (key-settlement.ts).
      outbox.enqueueOnceSettled(unanswered, () => settleUnansweredInsert(this.deps, unanswered));
      throw storeDidNotAnswer();
    }
    annotateIngest(() => ({ [ATTR.eventId]: event._id, [ATTR.eventType]: event.type, [ATTR.accountId]: accountId }));
    const started = outbox.enqueue(event);
    return { created: true, body: ingestResponse(event), started };
  }

  /**
   * The operations on one event, its deliveries or an endpoint's take the owner (RecordOwner): for a portal session's call,
   * its tenant is in the filter of the event's and the endpoint's reads (an event's tenant never changes, so its deliveries
   * are its tenant's), and another tenant's is a 404.
   */
  async get(owner: RecordOwner, id: number): Promise<EventView & { deliveries: DeliveryView[] }> {
    const event = await this.deps.events.find(owner, id);
    if (!event) throw eventNotFound(id);
    const docs = await this.deps.deliveries.forEvent(event._id, event.endpoint_ids);
    const deliveries = event.endpoint_ids.map((endpointId, i) => deliveryView(docs[i] ?? undefined, endpointId, event.endpoint_urls[i] ?? '', event.created_at));
    return { ...eventView(event, deriveEventStatus(deliveries.map((d) => d.status))), deliveries };
  }

  /** Newest first. Status is derived from the deliveries when read: one writer per delivery, so no update is lost. */
  async list(
    accountId: string,
    options: { limit: number; cursor?: string; type?: string; status?: EventStatus; tenant_id?: string },
  ): Promise<{ data: EventView[]; next_cursor: string | null }> {
    const before = options.cursor ? decodeCursor(options.cursor, EventListCursor) : undefined;
    // Bounded store calls: the list (one more than the page, so a cursor means more follow), one status query, a few bodies at a time.
    const want = options.status ? MAX_LIST_SCAN : options.limit + 1;
    const { events: batch, next } = await this.deps.events.list(accountId, { before, want, examineAtMost: MAX_LIST_SCAN, type: options.type, tenantId: options.tenant_id });
    // Each event's status from its deliveries' records (no record = pending).
    const ids = batch.flatMap((e) => e.endpoint_ids.map((endpointId) => deliveryId(e._id, endpointId)));
    const recorded = await this.deps.deliveries.statusesOf(accountId, batch.map((e) => e._id), ids);
    const statuses = batch.map((e) => deriveEventStatus(e.endpoint_ids.map((endpointId) => recorded.get(deliveryId(e._id, endpointId)) ?? 'pending')));
    const page: EventView[] = [];
    let bytes = 0;
    let position = before;
    const cursorAt = () => ({ data: page, next_cursor: encodeCursor(position as EventListPosition) });
    const pageFull = () => page.length >= options.limit || (page.length > 0 && bytes >= MAX_LIST_PAGE_DATA_BYTES);
    for (let i = 0; i < batch.length; ) {
      if (pageFull()) return cursorAt();
      // No more bodies read than the page still has room for.
      const chunk: number[] = [];
      for (; i < batch.length && chunk.length < Math.min(BODY_READS_AT_ONCE, options.limit - page.length); i++) chunk.push(i);
      const full = await Promise.all(chunk.map((j) => (options.status && statuses[j] !== options.status ? null : this.deps.events.findUnscoped(batch[j]._id))));
      for (let k = 0; k < chunk.length; k++) {
        if (pageFull()) return cursorAt();
        position = batch[chunk[k]].position;
        const event = full[k];
        if (!event) continue;
        page.push(eventView(event, statuses[chunk[k]]));
        bytes += event.body.length;
      }
    }
    if (pageFull() && next) return cursorAt();
    return { data: page, next_cursor: next ? encodeCursor(next) : null };
  }

  /** CONTRACT §4: a failed or cancelled delivery gets a new round from attempt 1 (409 while one is in flight); only its claimer starts it. */
  async retry(owner: RecordOwner, eventId: number, endpointId: string): Promise<DeliveryView> {
    const { deliveries, scheduler } = this.deps;
    const { event, id } = await deliveryOf(this.deps.events, owner, eventId, endpointId);
    const accountId = event.account_id;
    const delivery = await deliveries.find(id);
    if (!delivery || (await scheduler.isRunning(id))) throw roundInFlight();
    if (delivery.status === 'succeeded') {
      throw new DomainError('delivery_not_retryable', 'The delivery succeeded; only failed or cancelled deliveries can be retried.');
    }
    // The account's: an endpoint moved to another tenant is told apart from a deleted one (the event is the caller's).
    const endpoint = await this.deps.endpoints.find(accountId, endpointId);
    if (!endpoint) throw new DomainError('endpoint_deleted', `Endpoint ${endpointId} was deleted; its deliveries cannot be retried.`);
    if (endpoint.disabled) throw new DomainError('endpoint_disabled', `Endpoint ${endpointId} is disabled; enable it before retrying.`);
    if (!sameTenant(endpoint.tenant_id, event.tenant_id)) {
      throw new DomainError('endpoint_tenant_changed', `Endpoint ${endpointId} now belongs to another tenant than event ${eventId}; the event cannot be delivered to it again.`);
    }

    const now = this.deps.clock();
    let round = delivery.round;
    if (isManuallyRetryable(delivery.status)) {
      round = delivery.round + 1;
      if (round > MAX_DELIVERY_ROUNDS) {
        throw new DomainError('delivery_round_limit', `A delivery can be retried at most ${MAX_DELIVERY_ROUNDS - 1} times.`);
      }
      if (!(await deliveries.claimRound(id, round, now))) throw roundInFlight();
    } else {
      // No run: another retry is starting it, its run just closed, or a crash cut its start short (restarted after the grace).
      const staleBefore = new Date(now.getTime() - ROUND_START_GRACE_MS);
      if (!(await deliveries.claimRoundRestart(id, round, staleBefore, now))) throw roundInFlight();
    }
    await deliveries.startRound(id, round, now);
    const started = await scheduler.start(
      { workflowId: id, eventId, endpointId, accountId, round, type: event.type, timestamp: event.timestamp, body: event.body, url: endpoint.url },
      { manualRetry: true },
    );
    if (started === 'already-exists') throw roundInFlight();
    return deliveryView({ ...delivery, round, status: 'pending', attempt_count: 0, next_attempt_at: now }, endpointId, endpoint.url);
  }

  /** The next attempt, at once, with the next attempt number, if the run awaits a retry; 409 `delivery_not_waiting` if not. */
  async retryNow(owner: RecordOwner, eventId: number, endpointId: string): Promise<DeliveryView> {
    const { id, urlAtIngest } = await deliveryOf(this.deps.events, owner, eventId, endpointId);
    const notWaiting = () => new DomainError('delivery_not_waiting', `Delivery of event ${eventId} to endpoint ${endpointId} is not waiting for its next attempt.`);
    // Only a delivery recorded `retrying` can wait on a timer. Another's run is not asked: a first attempt in flight holds
    // its run's task (a local activity), so the question would wait for the POST to end, and time out as if workers were down.
    const recorded = await this.deps.deliveries.find(id);
    if (recorded?.status !== 'retrying') throw notWaiting();
    const woken = await this.deps.scheduler.retryNow(id, retryNowDeadline());
    if (woken === 'unanswered') throw retryNowUnanswered();
    if (!woken) throw notWaiting();
    // The record as read before the wake names the cancelled timer's time: the woken attempt is due now.
    return { ...deliveryView(recorded, endpointId, urlAtIngest), next_attempt_at: this.deps.clock().toISOString() };
  }

  /** Answers the delivery as recorded when asked; the run records an attempt in flight first. 409 `delivery_ended`: ended, or no round runs. */
  async cancel(owner: RecordOwner, eventId: number, endpointId: string): Promise<DeliveryView> {
    const { id, urlAtIngest } = await deliveryOf(this.deps.events, owner, eventId, endpointId);
    const delivery = (await this.deps.deliveries.find(id)) ?? undefined;
    if ((delivery && isFinishedDeliveryStatus(delivery.status)) || !(await this.deps.scheduler.cancel(id))) {
      throw new DomainError('delivery_ended', `Delivery of event ${eventId} to endpoint ${endpointId} has ended; there is nothing to cancel.`);
    }
    return deliveryView(delivery, endpointId, urlAtIngest);
  }

  /** Wakes the endpoint's waiting deliveries in id order; `not_waiting`: listed but no longer waiting (in flight, or ended). */
  async retryNowForEndpoint(owner: RecordOwner, endpointId: string, cursor?: string) {
    const after = cursor !== undefined ? decodeCursor(cursor, RetryNowCursor, 'cursor').after : undefined;
    await requireEndpoint(this.deps.endpoints, owner, endpointId);
    const ids = await this.deps.deliveries.waitingForEndpoint(endpointId, after, MAX_RETRY_NOW_PER_CALL);
    const owned = await this.ownersOnly(owner, ids, (id) => eventIdOfDelivery(id) ?? 0);
    let woken = 0;
    const deadline = retryNowDeadline();
    for (let i = 0; i < owned.length; i += RETRY_NOW_AT_ONCE) {
      const answers = await Promise.all(owned.slice(i, i + RETRY_NOW_AT_ONCE).map((id) => this.deps.scheduler.retryNow(id, deadline)));
      // Those woken stay woken: the repeat finds them no longer waiting, and wakes the rest.
      if (answers.includes('unanswered')) throw retryNowUnanswered();
      woken += answers.filter((a) => a !== null).length;
    }
    // The cursor goes on from the page read, so that a page of other tenants' deliveries does not end the walk.
    const last = ids[ids.length - 1];
    return { woken, not_waiting: owned.length - woken, next_cursor: ids.length === MAX_RETRY_NOW_PER_CALL && last !== undefined ? encodeCursor({ after: last }) : null };
  }

  /** Bulk recovery: the endpoint's failed or cancelled deliveries first attempted since `since` get a new round, as `retry` gives. */
  async recover(owner: RecordOwner, endpointId: string, since: Date): Promise<RecoveryRun> {
    const now = this.deps.clock();
    const problem = recoverySinceProblem(since, now);
    if (problem) throw new ValidationError(problem, [{ path: 'since', message: problem.replace(/^since /, '') }], 'invalid_since');
    const endpoint = await requireEndpoint(this.deps.endpoints, owner, endpointId);
    if (endpoint.disabled) throw new DomainError('endpoint_disabled', `Endpoint ${endpointId} is disabled; enable it before recovering its deliveries.`);
    const accountId = endpoint.account_id;
    const running = await this.deps.recoveries.running(endpointId);
    if (running) return running;
    const eventIds = await this.ownersOnly(owner, await this.deps.deliveries.retryableForEndpointSince(endpointId, since, MAX_RECOVERY_DELIVERIES), (id) => id);
    return this.deps.recoveries.startOrJoin({ accountId, endpointId, since: since.toISOString(), eventIds }, now);
  }

  /**
   * An endpoint's deliveries as a set, for a tenant's caller: those of its tenant's events only (a delivery has no tenant of
   * its own; its event's is put in the filter of one read). A key's call keeps them all, with no read.
   */
  private async ownersOnly<T>(owner: RecordOwner, deliveries: T[], eventIdOf: (delivery: T) => number): Promise<T[]> {
    if (ownerOf(owner).tenantId === undefined || deliveries.length === 0) return deliveries;
    const owned = await this.deps.events.ownedAmong(owner, deliveries.map(eventIdOf));
    return deliveries.filter((delivery) => owned.has(eventIdOf(delivery)));
  }
}

const roundInFlight = () => new DomainError('delivery_in_flight', 'A delivery round is already in flight.');

/** Real time, whatever clock the service keeps: it bounds a call to Temporal. */
const retryNowDeadline = () => Date.now() + RETRY_NOW_ANSWER_MS;

/** 503: no worker took the retry-now in time (all down, or all busy); it may still be run once one does. */
function retryNowUnanswered(): DomainError {
  return new DomainError(
    'service_unavailable',
    `The delivery's workers did not take the retry now within ${RETRY_NOW_ANSWER_MS / 1000} s (they may be down or busy); it may still be made once they do. Repeat the call: a delivery already woken answers 409 delivery_not_waiting.`,
    { retry_after: 1 },
    { retryAfterSeconds: 1 },
  );
}

/** 503: a write of the ingest got no answer, so its event may be stored (it is then delivered, and answers the repeat of its key). */
function storeDidNotAnswer(): DomainError {
  return new DomainError('service_unavailable', 'The event store did not answer. Repeat the call with the same idempotency key.', { retry_after: 1 }, { retryAfterSeconds: 1 });
}

/** The event as its status and the list show it: what its ingest answered, and its data, status and creation time. */
function eventView(event: EventDoc, status: EventStatus) {
  return { ...ingestResponse(event), data: event.data, status, created_at: event.created_at.toISOString() };
}

/** The owner's event and its delivery to the endpoint, or 404 (unknown event, another account's or tenant's, or not delivered to that endpoint). */
async function deliveryOf(events: Pick<Events, 'find'>, owner: RecordOwner, eventId: number, endpointId: string): Promise<{ event: EventDoc; id: string; urlAtIngest: string }> {
  const event = await events.find(owner, eventId);
  if (!event) throw eventNotFound(eventId);
  const index = event.endpoint_ids.indexOf(endpointId);
  if (index < 0) throw new DomainError('not_found', `Event ${eventId} has no delivery to endpoint ${endpointId}.`);
  return { event, id: deliveryId(eventId, endpointId), urlAtIngest: event.endpoint_urls[index] ?? '' };
}

/** A delivery with no record yet has made no attempt: pending, at the URL matched at ingest. */
function deliveryView(d: DeliveryDoc | undefined, endpointId: string, urlAtIngest: string, dueAt?: Date) {
  return {
    endpoint_id: endpointId,
    url: d?.url || urlAtIngest,
    status: d?.status ?? 'pending',
    round: d?.round ?? 1,
    attempt_count: d?.attempt_count ?? 0,
    next_attempt_at: d ? (d.next_attempt_at ? d.next_attempt_at.toISOString() : null) : (dueAt?.toISOString() ?? null),
    /** Its attempt came due while its endpoint was paused and waits for the resume (status stays `pending` or `retrying`). */
    paused: d?.paused ?? false,
    attempts: (d?.attempts ?? []).map((a) => ({
      round: a.round,
      attempt: a.attempt,
      started_at: a.started_at.toISOString(),
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.error,
      response_body: a.response_body,
    })),
  };
}

/** The event id a path names (domain/webhooks/event-id.ts): 400 `invalid_event_id` for no positive integer, 404 for one no event can have. */
export function assertPositiveEventId(raw: string): number {
  const id = parseEventId(raw);
  if (id === null) {
    throw new ValidationError('event_id must be a positive integer.', [{ path: 'path.event_id', message: 'Expected a positive integer' }], 'invalid_event_id');
  }
  if (id === 'beyond_ids') throw eventNotFound(raw);
  return id;
}

const eventNotFound = (id: number | string) => new DomainError('not_found', `Event ${id} not found.`);

import { ConflictError, NotFoundError, PayloadTooLargeError, ValidationError } from '../domain/errors';
import { buildDeliveryBody } from '../domain/webhooks/delivery-request';
import { deriveEventStatus, EventStatus, isManuallyRetryable } from '../domain/webhooks/delivery-status';
import { matchesAny } from '../domain/webhooks/event-pattern';
import { deliveryId, Deliveries, DeliveryDoc } from '../persistence/deliveries';
import type { AccountEndpointsCache } from './account-endpoints-cache';
import type { Endpoints } from '../persistence/endpoints';
import type { EventDoc, Events } from '../persistence/events';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { DeliveryScheduler } from '../temporal/delivery-scheduler';
import { Dispatcher, idempotencyRecordFor, ingestResponse } from './dispatcher';
import { decodeCursor, encodeCursor } from './pagination';

/** CONTRACT §4: serialized `data` over 256 KiB is refused with 413. */
export const MAX_EVENT_DATA_BYTES = 256 * 1024;

export interface IngestInput {
  type: string;
  data: Record<string, unknown>;
  idempotency_key?: string;
}

export interface IngestResult {
  /** 202 for a new event, 200 for a repeat of an idempotency key. */
  created: boolean;
  body: Record<string, unknown>;
}

export interface AttemptView {
  round: number;
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
}

export interface DeliveryView {
  endpoint_id: string;
  url: string;
  status: DeliveryDoc['status'];
  round: number;
  attempt_count: number;
  next_attempt_at: string | null;
  attempts: AttemptView[];
}

export interface EventView {
  id: number;
  type: string;
  timestamp: number;
  data: Record<string, unknown>;
  idempotency_key: string | null;
  status: EventStatus;
  destinations: number;
  created_at: string;
}

interface EventCursor {
  id: number;
}
const isEventCursor = (v: unknown): v is EventCursor => typeof v === 'object' && v !== null && Number.isInteger((v as EventCursor).id);

export class EventService {
  constructor(
    private readonly events: Events,
    private readonly endpoints: Endpoints,
    private readonly deliveries: Deliveries,
    private readonly endpointsCache: AccountEndpointsCache,
    private readonly idempotency: IdempotencyRecords,
    private readonly dispatcher: Dispatcher,
    private readonly scheduler: DeliveryScheduler,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Stores the event, claims its idempotency key (a unique insert decides between
   * concurrent repeats), then starts its deliveries. Only then is it acknowledged (202):
   * if the process dies on the way, the dispatch sweep finishes the job.
   */
  async ingest(accountId: string, input: IngestInput): Promise<IngestResult> {
    if (Buffer.byteLength(JSON.stringify(input.data), 'utf8') > MAX_EVENT_DATA_BYTES) {
      throw new PayloadTooLargeError('Event data exceeds 256 KiB when serialized.');
    }
    const key = input.idempotency_key ?? null;
    const now = this.clock();
    let generation = 1;
    if (key !== null) {
      const { record, nextGeneration } = await this.idempotency.latest(accountId, key);
      if (record && record.expires_at > now) return { created: false, body: record.response };
      generation = nextGeneration;
    }

    const matching = (await this.endpointsCache.enabled(accountId)).filter((e) => matchesAny(e.events, input.type));
    const timestamp = Math.floor(now.getTime() / 1000);
    const ticket = await this.dispatcher.openTicket();
    const event = await this.events.insertWithNextId(
      {
        account_id: accountId,
        type: input.type,
        data: input.data,
        timestamp,
        idempotency_key: key,
        endpoint_ids: matching.map((e) => e._id),
        dispatch_ticket: ticket,
        status: matching.length === 0 ? 'delivered' : 'pending',
        created_at: now,
      },
      (id) => buildDeliveryBody({ id, type: input.type, data: input.data, timestamp }),
    );

    if (key !== null) {
      while (!(await this.idempotency.claim(idempotencyRecordFor(event, generation)))) {
        const { record, nextGeneration } = await this.idempotency.latest(accountId, key);
        if (record && record.expires_at > now) {
          await this.events.delete(event._id);
          await this.dispatcher.closeTicket(ticket);
          return { created: false, body: record.response };
        }
        generation = nextGeneration;
      }
    }

    await this.dispatcher.dispatch(event, matching);
    return { created: true, body: ingestResponse(event) };
  }

  async get(accountId: string, id: number): Promise<EventView & { deliveries: DeliveryView[] }> {
    const event = await this.events.find(accountId, id);
    if (!event) throw new NotFoundError(`Event ${id} not found.`);
    const deliveries = await this.deliveries.forEvent(id, event.endpoint_ids);
    const deliveryViews = event.endpoint_ids.map((endpointId, i) => deliveryView(deliveries[i] ?? undefined, endpointId));
    return {
      ...eventView(event),
      status: deriveEventStatus(deliveryViews.map((d) => d.status)),
      deliveries: deliveryViews,
    };
  }

  async list(
    accountId: string,
    options: { limit: number; cursor?: string; type?: string; status?: EventStatus },
  ): Promise<{ data: EventView[]; next_cursor: string | null }> {
    const beforeId = options.cursor ? decodeCursor(options.cursor, isEventCursor).id : undefined;
    const docs = await this.events.list(accountId, { limit: options.limit + 1, beforeId, type: options.type, status: options.status });
    const page = docs.slice(0, options.limit);
    const last = page[page.length - 1];
    return { data: page.map(eventView), next_cursor: docs.length > options.limit && last ? encodeCursor({ id: last._id }) : null };
  }

  /** CONTRACT §4: a failed or cancelled delivery starts again from attempt 1 of a new round; 409 otherwise. */
  async retry(accountId: string, eventId: number, endpointId: string): Promise<DeliveryView> {
    const event = await this.events.find(accountId, eventId);
    if (!event) throw new NotFoundError(`Event ${eventId} not found.`);
    const delivery = await this.deliveries.find(deliveryId(eventId, endpointId));
    if (!delivery || delivery.account_id !== accountId) throw new NotFoundError(`Event ${eventId} has no delivery to endpoint ${endpointId}.`);
    if (!isManuallyRetryable(delivery.status)) {
      throw new ConflictError(`The delivery is ${delivery.status}; only failed or cancelled deliveries can be retried.`, 'delivery_not_retryable');
    }
    const endpoint = await this.endpoints.find(accountId, endpointId);
    if (!endpoint) throw new ConflictError(`Endpoint ${endpointId} was deleted; its deliveries cannot be retried.`, 'endpoint_deleted');
    if (endpoint.disabled) throw new ConflictError(`Endpoint ${endpointId} is disabled; enable it before retrying.`, 'endpoint_disabled');
    const round = delivery.round + 1;
    const started = await this.scheduler.start(
      { workflowId: delivery._id, eventId, endpointId, accountId, round, eventType: event.type, url: endpoint.url },
      { manualRetry: true },
    );
    if (started === 'already-exists') throw new ConflictError('A delivery round is already in flight.', 'delivery_in_flight');
    const now = this.clock();
    await this.deliveries.startRound(delivery._id, round, now);
    await this.events.setStatus(eventId, 'pending');
    return deliveryView({ ...delivery, round, status: 'pending', attempt_count: 0, next_attempt_at: now }, endpointId);
  }
}

function eventView(event: EventDoc): EventView {
  return {
    id: event._id,
    type: event.type,
    timestamp: event.timestamp,
    data: event.data,
    idempotency_key: event.idempotency_key,
    status: event.status,
    destinations: event.endpoint_ids.length,
    created_at: event.created_at.toISOString(),
  };
}

function deliveryView(d: DeliveryDoc | undefined, endpointId: string): DeliveryView {
  return {
    endpoint_id: endpointId,
    url: d?.url ?? '',
    status: d?.status ?? 'pending',
    round: d?.round ?? 1,
    attempt_count: d?.attempt_count ?? 0,
    next_attempt_at: d?.next_attempt_at ? d.next_attempt_at.toISOString() : null,
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

export function assertPositiveEventId(raw: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) {
    throw new ValidationError('event_id must be a positive integer.', [{ path: 'path.event_id', message: 'Expected a positive integer' }], 'invalid_event_id');
  }
  return Number(raw);
}

import createClient, { type Client } from 'openapi-fetch';
import { randomUUID } from 'node:crypto';
import { PlatformError } from './errors.js';
import type { components, paths } from './generated/openapi.js';
import { DEFAULT_MAX_RETRIES, realSleep, retryDelayMs } from './retry.js';

type Schemas = components['schemas'];

/** An event as ingested (202) or as first ingested, for a repeat of its idempotency key (200). */
export type SentEvent = Schemas['SentEvent'];
export type EventSummary = Schemas['Event'];
/** An event with every delivery of it and their attempts. */
export type EventWithDeliveries = Schemas['EventWithDeliveries'];
export type Delivery = Schemas['Delivery'];
export type DeliveryStatus = Schemas['DeliveryStatus'];
export type EventStatus = Schemas['EventStatus'];
export type Endpoint = Schemas['Endpoint'];
/** An endpoint as created: with its signing secret, shown only here and by `endpoints.secret`. */
export type CreatedEndpoint = Schemas['EndpointWithSecret'];
export type NewEndpoint = Schemas['CreateEndpointRequest'];
export type EndpointChange = Schemas['UpdateEndpointRequest'];
/** A broker destination as sent (RabbitMQ, Kafka or SQS, instead of `url`): its credentials are write-only. */
export type NewDestination = Schemas['DestinationRequest'];
/** A broker endpoint's destination as read back: type, config and the credential fields set (never their values). */
export type Destination = Schemas['Destination'];
export type Recovery = Schemas['Recovery'];
/** An entry of the account's event-type catalog: a description, and optionally a JSON Schema that ingest checks `data` against. */
export type EventType = Schemas['EventType'];
export type NewEventType = Schemas['CreateEventTypeRequest'];
/** Absent fields stay; null removes the schema or the example. */
export type EventTypeChange = Schemas['UpdateEventTypeRequest'];
export type ListEventsQuery = Omit<NonNullable<paths['/api/v1/webhooks/events']['get']['parameters']['query']>, 'cursor'>;
export type ListEndpointsQuery = Omit<NonNullable<paths['/api/v1/webhooks/endpoints']['get']['parameters']['query']>, 'cursor'>;
/** One of the account's customers, named by the sender's own id for it; it exists while it has at least one endpoint. */
export type Tenant = Schemas['Tenant'];
/** A short-lived token for one tenant's people, and the portal page that uses it. */
export type PortalSession = Schemas['PortalSession'];
export type NewPortalSession = Schemas['CreatePortalSessionRequest'];

export interface ClientOptions {
  /** Retries of a 429 or 503 answer (and of a send that got no answer) before the error is thrown. Default 5. */
  maxRetries?: number;
  /** Milliseconds one try may take, answer included, before it is abandoned. Default 30,000. */
  timeoutMs?: number;
  /**
   * Milliseconds one call may spend waiting between its tries, in all: a retry whose wait would pass it is
   * not made, and the last error is thrown at once. Default: no bound beyond `maxRetries` (five waits are
   * 31 × Retry-After: 15.5 minutes at a 503's longest, 30 s; 31 at a 429's, 60 s).
   */
  maxRetryWaitMs?: number;
  /** How the client waits between tries (tests pass their own clock). */
  sleep?: (ms: number) => Promise<void>;
  /** Uniform in [0, 1): the jitter of each wait. */
  random?: () => number;
  fetch?: (request: Request) => Promise<Response>;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * A client of the platform's webhook API. Every call follows the retry advice (429 burst and 503:
 * wait Retry-After × 2^n plus up to 500 ms, at most `maxRetries` times and `maxRetryWaitMs` in all)
 * and throws `PlatformError` otherwise.
 */
export class PlatformClient {
  /** The generated client, for anything this layer does not cover; it has no retries. */
  readonly raw: Client<paths>;
  readonly events: Events;
  readonly endpoints: Endpoints;
  readonly deliveries: Deliveries;
  readonly eventTypes: EventTypes;
  readonly tenants: Tenants;
  readonly portalSessions: PortalSessions;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly maxRetryWaitMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  /** `apiKey`: the account's `weh` key, or a portal session's `whpt_` token (that tenant's records only; see `portalSessions.create`). */
  constructor(baseUrl: string, apiKey: string, options: ClientOptions = {}) {
    this.raw = createClient<paths>({ baseUrl: baseUrl.replace(/\/+$/, ''), headers: { Authorization: `Bearer ${apiKey}` }, fetch: options.fetch });
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? Infinity;
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.events = new Events(this);
    this.endpoints = new Endpoints(this);
    this.deliveries = new Deliveries(this);
    this.eventTypes = new EventTypes(this);
    this.tenants = new Tenants(this);
    this.portalSessions = new PortalSessions(this);
  }

  /**
   * One operation with the retry advice. `noAnswerIsRetryable`: a try that got no answer (network
   * error, time-out) is tried again too; only for calls that are safe to repeat (reads, idempotent sends).
   * @internal
   */
  async request<T>(call: (signal: AbortSignal) => Promise<Answer<T>>, noAnswerIsRetryable: boolean): Promise<T> {
    let waited = 0;
    /** Waits before retry `retry`, or answers false when `maxRetries` or `maxRetryWaitMs` says to give up. */
    const waitedToRetry = async (retry: number, retryAfterSeconds: number | undefined): Promise<boolean> => {
      const delay = retryDelayMs(retry, retryAfterSeconds, this.random());
      if (retry >= this.maxRetries || waited + delay > this.maxRetryWaitMs) return false;
      waited += delay;
      await this.sleep(delay);
      return true;
    };
    for (let retry = 0; ; retry++) {
      let answer: Answer<T>;
      try {
        answer = await call(AbortSignal.timeout(this.timeoutMs));
      } catch (err) {
        if (noAnswerIsRetryable && (await waitedToRetry(retry, undefined))) continue;
        throw err;
      }
      if (answer.response.ok) return answer.data as T;
      const error = new PlatformError(answer.response.status, answer.error, answer.response.headers);
      if (error.retryable && (await waitedToRetry(retry, error.retryAfterSeconds))) continue;
      throw error;
    }
  }
}

/** Every item of every page, following `next_cursor` until it is null. */
async function* pages<T>(page: (cursor: string | undefined) => Promise<{ data: T[]; next_cursor: string | null }>): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const { data, next_cursor } = await page(cursor);
    yield* data;
    cursor = next_cursor ?? undefined;
  } while (cursor);
}

class Events {
  constructor(private readonly client: PlatformClient) {}

  /**
   * Ingests an event. Without `idempotencyKey` a random one is made; every retry of this call sends
   * the same key, so an event whose answer was lost is stored once (the repeat answers 200 with it).
   * With `tenantId` it reaches only that tenant's endpoints; without, only the account's endpoints that have no tenant.
   */
  send(type: string, data: Record<string, unknown>, options: { idempotencyKey?: string; tenantId?: string } = {}): Promise<SentEvent> {
    const body = { type, data, idempotency_key: options.idempotencyKey ?? randomUUID(), ...(options.tenantId === undefined ? {} : { tenant_id: options.tenantId }) };
    return this.client.request((signal) => this.client.raw.POST('/api/v1/webhooks/events', { body, signal }), true);
  }

  /** Every event, newest first, across pages (`limit` is the page size). */
  list(query: ListEventsQuery = {}): AsyncGenerator<EventSummary> {
    return pages((cursor) => this.client.request((signal) => this.client.raw.GET('/api/v1/webhooks/events', { params: { query: { ...query, cursor } }, signal }), true));
  }

  /** An event with its deliveries and their attempts. */
  get(eventId: number | string): Promise<EventWithDeliveries> {
    return this.client.request((signal) => this.client.raw.GET('/api/v1/webhooks/events/{event_id}', { params: { path: { event_id: String(eventId) } }, signal }), true);
  }
}

class Deliveries {
  constructor(private readonly client: PlatformClient) {}

  /** A failed or cancelled delivery starts a new round from attempt 1. */
  retry(eventId: number | string, endpointId: string): Promise<Delivery> {
    return this.client.request((signal) => this.client.raw.POST('/api/v1/webhooks/events/{event_id}/deliveries/{endpoint_id}/retry', { params: { path: { event_id: String(eventId), endpoint_id: endpointId } }, signal }), false);
  }

  /** A delivery waiting for its next attempt makes it now. */
  retryNow(eventId: number | string, endpointId: string): Promise<Delivery> {
    return this.client.request((signal) => this.client.raw.POST('/api/v1/webhooks/events/{event_id}/deliveries/{endpoint_id}/retry-now', { params: { path: { event_id: String(eventId), endpoint_id: endpointId } }, signal }), false);
  }

  /** A pending or retrying delivery makes no further attempt. */
  cancel(eventId: number | string, endpointId: string): Promise<Delivery> {
    return this.client.request((signal) => this.client.raw.POST('/api/v1/webhooks/events/{event_id}/deliveries/{endpoint_id}/cancel', { params: { path: { event_id: String(eventId), endpoint_id: endpointId } }, signal }), false);
  }
}

class Endpoints {
  constructor(private readonly client: PlatformClient) {}

  /** Registers an endpoint; the answer carries its signing secret. */
  create(endpoint: NewEndpoint): Promise<CreatedEndpoint> {
    return this.client.request((signal) => this.client.raw.POST('/api/v1/webhooks/endpoints', { body: endpoint, signal }), false);
  }

  /** Every endpoint (only `tenant_id`'s, when given), newest first, across pages. */
  list(query: ListEndpointsQuery = {}): AsyncGenerator<Endpoint> {
    return pages((cursor) => this.client.request((signal) => this.client.raw.GET('/api/v1/webhooks/endpoints', { params: { query: { ...query, cursor } }, signal }), true));
  }

  get(id: string): Promise<Endpoint> {
    return this.client.request((signal) => this.client.raw.GET('/api/v1/webhooks/endpoints/{id}', { params: { path: { id } }, signal }), true);
  }

  update(id: string, change: EndpointChange): Promise<Endpoint> {
    return this.client.request((signal) => this.client.raw.PATCH('/api/v1/webhooks/endpoints/{id}', { params: { path: { id } }, body: change, signal }), false);
  }

  /** Deletes the endpoint; its pending retries end cancelled. */
  async delete(id: string): Promise<void> {
    await this.client.request((signal) => this.client.raw.DELETE('/api/v1/webhooks/endpoints/{id}', { params: { path: { id } }, signal }), false);
  }

  /** The current signing secret. */
  async secret(id: string): Promise<string> {
    return (await this.client.request((signal) => this.client.raw.GET('/api/v1/webhooks/endpoints/{id}/secret', { params: { path: { id } }, signal }), true)).secret;
  }

  /** A new signing secret; the replaced one keeps signing `webhook-signature` for `gracePeriodSeconds` (default one day). */
  async rotateSecret(id: string, options: { gracePeriodSeconds?: number } = {}): Promise<string> {
    const body = options.gracePeriodSeconds === undefined ? {} : { grace_period_seconds: options.gracePeriodSeconds };
    return (await this.client.request((signal) => this.client.raw.POST('/api/v1/webhooks/endpoints/{id}/secret/rotate', { params: { path: { id } }, body, signal }), false)).secret;
  }

  /** Starts again every failed or cancelled delivery to the endpoint first attempted since `since` (within 7 days). */
  recover(id: string, since: Date | string): Promise<Recovery> {
    const body = { since: since instanceof Date ? since.toISOString() : since };
    return this.client.request((signal) => this.client.raw.POST('/api/v1/webhooks/endpoints/{id}/recover', { params: { path: { id } }, body, signal }), false);
  }

  /** No attempt is made to the endpoint until it is resumed; deliveries that come due wait. */
  pause(id: string): Promise<Endpoint> {
    return this.client.request((signal) => this.client.raw.POST('/api/v1/webhooks/endpoints/{id}/pause', { params: { path: { id } }, signal }), false);
  }

  /** Every delivery that waits makes its attempt now. */
  resume(id: string): Promise<Endpoint> {
    return this.client.request((signal) => this.client.raw.POST('/api/v1/webhooks/endpoints/{id}/resume', { params: { path: { id } }, signal }), false);
  }
}

/** The account's event-type catalog: a send whose `data` does not match its type's schema throws 422 `schema_mismatch`, its `details` naming the failing paths. */
class EventTypes {
  constructor(private readonly client: PlatformClient) {}

  /** Registers a type; a name the catalog already has throws 409 `event_type_exists`. */
  create(eventType: NewEventType): Promise<EventType> {
    return this.client.request((signal) => this.client.raw.POST('/api/v1/webhooks/event-types', { body: eventType, signal }), false);
  }

  /** Every type, by name, across pages. */
  list(query: { limit?: number } = {}): AsyncGenerator<EventType> {
    return pages((cursor) => this.client.request((signal) => this.client.raw.GET('/api/v1/webhooks/event-types', { params: { query: { ...query, cursor } }, signal }), true));
  }

  get(name: string): Promise<EventType> {
    return this.client.request((signal) => this.client.raw.GET('/api/v1/webhooks/event-types/{name}', { params: { path: { name } }, signal }), true);
  }

  /** Changes the fields named; 409 `event_type_changed` when another call changed the schema or example this one was checked against. */
  update(name: string, change: EventTypeChange): Promise<EventType> {
    return this.client.request((signal) => this.client.raw.PATCH('/api/v1/webhooks/event-types/{name}', { params: { path: { name } }, body: change, signal }), false);
  }

  /** Deletes the type: its events are accepted unchecked from then on. */
  async delete(name: string): Promise<void> {
    await this.client.request((signal) => this.client.raw.DELETE('/api/v1/webhooks/event-types/{name}', { params: { path: { name } }, signal }), false);
  }
}

/** The account's tenants: each appears with its first endpoint (`tenant_id` on `endpoints.create`) and goes with its last. */
class Tenants {
  constructor(private readonly client: PlatformClient) {}

  /** Every tenant, newest first, with its endpoint count, across pages. */
  list(query: { limit?: number } = {}): AsyncGenerator<Tenant> {
    return pages((cursor) => this.client.request((signal) => this.client.raw.GET('/api/v1/webhooks/tenants', { params: { query: { ...query, cursor } }, signal }), true));
  }

  /** Deletes every endpoint of the tenant (their waiting deliveries end cancelled); its events stay. A tenant with no endpoint throws 404. */
  async delete(tenantId: string): Promise<void> {
    await this.client.request((signal) => this.client.raw.DELETE('/api/v1/webhooks/tenants/{tenant_id}', { params: { path: { tenant_id: tenantId } }, signal }), false);
  }
}

/** Portal sessions, made and revoked with the account's key (a session's own token gets 403 here). */
class PortalSessions {
  constructor(private readonly client: PlatformClient) {}

  /**
   * A token for one tenant (default 1 h, at most 24 h), shown only here: `new PlatformClient(baseUrl, session.token)` sees
   * and changes only that tenant's endpoints and events; a read-only one throws 403 `portal_read_only` on every change.
   */
  create(session: NewPortalSession): Promise<PortalSession> {
    return this.client.request((signal) => this.client.raw.POST('/api/v1/webhooks/portal-sessions', { body: session, signal }), false);
  }

  /** Ends every session of the account at once (401 `invalid_portal_token` from then on); answers how many. */
  async revokeAll(): Promise<number> {
    return (await this.client.request((signal) => this.client.raw.DELETE('/api/v1/webhooks/portal-sessions', { signal }), false)).revoked;
  }
}

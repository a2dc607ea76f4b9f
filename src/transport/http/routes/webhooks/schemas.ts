import { URL_REQUIRED } from '../../../../domain/webhooks/destination';
import { z } from 'zod';
import { DELIVERY_STATUSES, EVENT_STATUSES } from '../../../../domain/webhooks/delivery-status';
import { DISABLED_REASONS } from '../../../../domain/webhooks/endpoint-health';
import { EVENT_ID_PATTERN } from '../../../../domain/webhooks/event-id';
import { ENDPOINT_ORDERINGS } from '../../../../domain/webhooks/fifo-order';
import { MAX_MAX_IN_FLIGHT, MAX_RATE_LIMIT_PER_S, MIN_MAX_IN_FLIGHT, MIN_RATE_LIMIT_PER_S } from '../../../../domain/webhooks/endpoint-limits';
import { EVENT_TYPE_REGEX, MAX_EVENT_PATTERNS } from '../../../../domain/webhooks/event-pattern';
import { IDEMPOTENCY_KEY_REGEX, IDEMPOTENCY_KEY_RULE, isWellFormedKey } from '../../../../domain/webhooks/idempotency-key';
import { MAX_CURSOR_LENGTH } from '../../../../services/pagination';
import { DestinationInput, DestinationView } from './destination-schemas';
import { DEFAULT_GRACE_PERIOD_SECONDS, MAX_GRACE_PERIOD_SECONDS, MAX_SECRETS_ALIVE } from '../../../../domain/webhooks/secret-rotation';
import { TenantId } from './tenant-schemas';

export const MAX_DESCRIPTION_LENGTH = 1024;

/**
 * Every schema a client names is a named component (`.meta({ id })`), so that the SDKs generated from the document
 * call the types `Delivery` and `DeliveryStatus`, not after the path and status code they first appear under.
 */

/** Any JSON object, every key kept: z.record and z.looseObject copy keys by assignment, making a `__proto__` key the copy's prototype. */
export const JsonObject = z
  .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
    error: (issue) => (Array.isArray(issue.input) ? 'must be a JSON object, not an array' : issue.input === null ? 'must be a JSON object, not null' : 'must be a JSON object'),
  })
  .describe(
    'Any JSON object (not an array, not null); at most 256 KiB serialized. Every key is delivered as sent, and every number with the value it was sent with: one a 64-bit double cannot hold (an integer beyond 2^53, more than 15 significant digits, 1e400) keeps its digits as sent, in the delivery and in this API\'s answers (a client that reads every number as a double, as JSON.parse and Go\'s encoding/json into an interface{} do, still rounds them).',
  )
  .meta({ id: 'EventData', type: 'object', additionalProperties: {} } as never);

const RATE_LIMIT_RULE =
  `Deliveries started to this endpoint per second, across all workers: an integer ${MIN_RATE_LIMIT_PER_S} to ${MAX_RATE_LIMIT_PER_S}; null: unlimited. ` +
  'Over it, a delivery waits its turn (retried after a short wait that grows while it keeps waiting); waiting is not an attempt and never fails a delivery.';
const MAX_IN_FLIGHT_RULE =
  `Requests to this endpoint in flight at once, across all workers: an integer ${MIN_MAX_IN_FLIGHT} to ${MAX_MAX_IN_FLIGHT}; null: unlimited. ` +
  'Over it, a delivery waits its turn as for `rate_limit_per_s`.';

const ORDERING_RULE =
  '`fifo`: deliveries are made one at a time, in the order their events were accepted: the next starts only once the one before it has succeeded, ' +
  'failed after its last attempt, or been cancelled (a failing delivery holds the queue while its retries run). `unordered` (the default): all at once. ' +
  'A change applies to events accepted from then on (docs/delivery.md, "FIFO endpoints").';

const EndpointOrdering = z.enum(ENDPOINT_ORDERINGS).describe(ORDERING_RULE).meta({ id: 'EndpointOrdering' });

/** An endpoint's own limits and ordering on a request: null is no limit (on PATCH it clears one); absent leaves it as it is. */
const DeliveryFields = {
  rate_limit_per_s: z.number().int().min(MIN_RATE_LIMIT_PER_S).max(MAX_RATE_LIMIT_PER_S).nullable().optional().describe(RATE_LIMIT_RULE),
  max_in_flight: z.number().int().min(MIN_MAX_IN_FLIGHT).max(MAX_MAX_IN_FLIGHT).nullable().optional().describe(MAX_IN_FLIGHT_RULE),
  ordering: EndpointOrdering.optional(),
};

const EndpointId = z.string().min(1).max(64);
export const EndpointIdParams = z.object({ id: EndpointId });

/** The fields a PATCH may change and a POST sets; the POST's carry its documentation. */
const EndpointUrl = z.string().meta({ format: 'uri', maxLength: 2048 });
const EventPatterns = z.array(z.string()).min(1).max(MAX_EVENT_PATTERNS);
const Description = z.string().max(MAX_DESCRIPTION_LENGTH);

/** The POST's fields, before the rule that binds two of them (a schema with a refinement cannot be picked from). */
export const EndpointCreateFields = z.strictObject({
  url: EndpointUrl.optional()
    .describe('HTTPS URL receiving delivery POSTs (max 2,048 characters). Required unless `destination` is given.')
    .meta({ example: 'https://example.com/webhooks' }),
  destination: DestinationInput.optional(),
  events: EventPatterns.optional().describe(
    'Patterns: `*`, `<prefix>.*` or an exact event type. Default `["*"]`. `*` matches every type except the operational events ' +
      'the platform emits about the account\'s own deliveries (`platform.endpoint.disabled`, `platform.endpoint.failing`, ' +
      '`platform.delivery.exhausted`): an endpoint receives those only through a pattern naming them, e.g. `platform.*`.',
  ),
  description: Description.optional().describe('Free text, default "".'),
  tenant_id: TenantId.optional(),
  ...DeliveryFields,
});

export const EndpointCreateBody = EndpointCreateFields
  // Reported with the body's other problems (when: also a body with wrong fields), as a required field is.
  .refine((body) => body.url !== undefined || body.destination !== undefined, {
    path: ['url'],
    message: URL_REQUIRED,
    when: (payload) => typeof payload.value === 'object' && payload.value !== null,
  })
  .meta({ id: 'CreateEndpointRequest' });

export const EndpointPatchBody = z.strictObject({
  url: EndpointUrl.optional().describe('A new HTTPS URL; on a broker endpoint it replaces the destination.'),
  destination: DestinationInput.optional().describe('A new broker destination; on an HTTPS endpoint it replaces the url.'),
  events: EventPatterns.optional(),
  description: Description.optional(),
  tenant_id: TenantId.nullable()
    .optional()
    .describe('Moves the endpoint to this tenant (null: to the account\'s own endpoints); its waiting deliveries, of events for the tenant it left, end `cancelled`.'),
  ...DeliveryFields,
  disabled: z
    .boolean()
    .optional()
    .describe(
      'A disabled endpoint receives nothing; its pending retries end `cancelled`. `false` enables it again, clears `disabled_reason` ' +
        'and starts its failing streak afresh (a whole new period before it can be disabled for failures again).',
    ),
}).meta({ id: 'UpdateEndpointRequest' });

const EndpointHealth = z
  .object({
    succeeded_24h: z.number().int().describe('Deliveries that succeeded in the current UTC hour and the 23 before it.'),
    failed_24h: z.number().int().describe('Deliveries that failed (all 8 attempts) in the current UTC hour and the 23 before it.'),
    last_success_at: z.string().nullable().describe('When the latest successful delivery ended (ISO 8601 UTC).'),
    last_failure_at: z.string().nullable().describe('When the latest failed delivery ended.'),
    consecutive_failures: z.number().int().describe('Failed deliveries since the last success (or since the endpoint was enabled again).'),
    failing_since: z.string().nullable().describe('When the first of those consecutive failures ended; null when there is none.'),
  })
  .describe(
    'A delivery is one round of one event to this endpoint; it counts when it ends (succeeded, or failed after its last attempt), ' +
      'not per attempt. Cancelled deliveries do not count.',
  )
  .meta({ id: 'EndpointHealth' });

export const Endpoint = z.object({
  id: z.string().describe('`ep_` + 24 base62 characters.'),
  tenant_id: z.string().nullable().describe('The tenant it belongs to; null: the account\'s own endpoint.'),
  url: z.string().nullable().describe('The HTTPS URL; null for a broker endpoint (see `destination`).'),
  destination: DestinationView.nullable(),
  events: z.array(z.string()),
  description: z.string(),
  disabled: z.boolean(),
  disabled_reason: z
    .union([z.enum(DISABLED_REASONS).meta({ id: 'DisabledReason' }), z.null()])
    .describe(
      'null while enabled; `manual` when disabled by its owner; `failing` when the platform disabled it because every delivery ' +
        'that ended during the auto-disable period (default 5 days, `ENDPOINT_AUTO_DISABLE_HOURS`) failed, the first of them at least that long ago. ' +
        'PATCH `{"disabled": false}` enables it again.',
    ),
  paused: z
    .boolean()
    .describe(
      'While paused, no attempt is made to it: new events are still accepted and matched, and deliveries that come due wait, their attempt numbers and ' +
        'schedule unchanged (`POST .../pause`, `POST .../resume`).',
    ),
  rate_limit_per_s: z.number().int().nullable().describe(RATE_LIMIT_RULE),
  max_in_flight: z.number().int().nullable().describe(MAX_IN_FLIGHT_RULE),
  ordering: EndpointOrdering,
  fifo: z
    .object({
      head_event_id: z.number().int().nullable().describe('The event whose delivery holds the turn (in flight, or waiting for its next attempt); null when none waits.'),
      length: z
        .number()
        .int()
        .describe('Deliveries from the head to the newest accepted, the head included (one cancelled out of turn is counted until the head passes it).'),
    })
    .describe("A FIFO endpoint's queue; only on GET of one FIFO endpoint.")
    .meta({ id: 'FifoQueue' })
    .optional(),
  health: EndpointHealth,
  secrets_in_grace: z
    .array(z.object({ expires_at: z.string().describe('When this replaced secret stops signing `webhook-signature` (ISO 8601 UTC).') }).meta({ id: 'SecretInGrace' }))
    .describe('Replaced signing secrets still in their rotation grace period, newest first (the secrets themselves are never listed).'),
  created_at: z.string().describe('ISO 8601 UTC.'),
  updated_at: z.string(),
}).meta({ id: 'Endpoint' });

export const EndpointWithSecret = z.object({ ...Endpoint.shape, secret: z.string().describe('`whsec_` signing secret.') }).meta({ id: 'EndpointWithSecret' });
export const SecretBody = z.object({ secret: z.string() }).meta({ id: 'Secret' });

export const RotateSecretBody = z
  .strictObject({
    grace_period_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_GRACE_PERIOD_SECONDS)
      .optional()
      .describe(
        `How long the replaced secret keeps signing \`webhook-signature\` beside the new one (default ${DEFAULT_GRACE_PERIOD_SECONDS}, at most ${MAX_GRACE_PERIOD_SECONDS} = 7 days). ` +
          '0 ends the replaced secret now and also every secret replaced earlier that is still in its grace: after a leak, no old secret signs anything. ' +
          '`X-Webhook-Signature` always uses the new secret.',
      ),
  })
  .describe(`Optional; an empty body rotates with the default grace period. At most ${MAX_SECRETS_ALIVE} secrets are alive at once: a rotation that would make more ends the grace of those that would expire first.`)
  .meta({ id: 'RotateSecretRequest' })
  .optional();

const Cursor = z.string().min(1).max(MAX_CURSOR_LENGTH);
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: Cursor.optional(),
});
export const pageOf = <T extends z.ZodType>(item: T, id: string) => z.object({ data: z.array(item), next_cursor: z.string().nullable() }).meta({ id });

export const EndpointList = pageOf(Endpoint, 'EndpointPage');
export const EndpointListQuery = ListQuery.extend({ tenant_id: TenantId.optional().describe('Only the endpoints of this tenant.') });

export const EventIngestBody = z.strictObject({
  type: z
    .string()
    .regex(EVENT_TYPE_REGEX, 'must be 1 to 256 characters of A-Z a-z 0-9 _ . : -')
    .describe('1 to 256 characters of A-Z a-z 0-9 _ . : -. Types starting `platform.` are reserved for the operational events the platform emits: 422 `reserved_event_type`.'),
  data: JsonObject,
  idempotency_key: z
    .string()
    .regex(IDEMPOTENCY_KEY_REGEX, IDEMPOTENCY_KEY_RULE)
    .refine(isWellFormedKey, IDEMPOTENCY_KEY_RULE)
    .optional()
    .describe(
      'Same as the `Idempotency-Key` header (its bytes read as UTF-8); repeats within 24 h return the original. 1 to 255 characters, spaces and any script ' +
        'included, e.g. a UUID or `<entity_id>_<action>`; a control character (U+0000 to U+001F, U+007F to U+009F) or an unpaired surrogate, in the body or the header, is a 400 `invalid_request`. ' +
        "Each tenant has its own keys, apart from the account's: the same key for another tenant is another event.",
    ),
  tenant_id: TenantId.optional(),
}).meta({ id: 'SendEventRequest' });

const EventStatus = z.enum(EVENT_STATUSES).meta({ id: 'EventStatus' });

const EventFields = {
  id: z.number().int(),
  type: z.string(),
  timestamp: z.number().int(),
  data: JsonObject,
  idempotency_key: z.string().nullable(),
  tenant_id: z.string().optional().describe('The tenant it was sent for; absent when it was sent for none (the account\'s own endpoints).'),
  status: EventStatus,
  destinations: z.number().int(),
  created_at: z.string(),
};

/** Ingest answers with the event's own fields but its data, status and creation time. */
export const IngestResponse = z
  .object(EventFields)
  .omit({ data: true, status: true, created_at: true })
  .extend({ destinations: EventFields.destinations.describe('Number of matching, enabled endpoints.') })
  .meta({ id: 'SentEvent' });

/** Checked by assertPositiveEventId (400 `invalid_event_id`, or 404); the pattern documents that rule (domain/webhooks/event-id.ts). */
export const EventIdParams = z.object({
  event_id: z.string().meta({
    pattern: EVENT_ID_PATTERN,
    description: 'The event id: a positive integer in decimal without leading zeros (else 400). Events have ids up to 2^53 − 1; a larger one is a 404, as any unknown id.',
    example: '1',
  }),
});
export const RetryParams = EventIdParams.extend({ endpoint_id: EndpointId });

export const EventListQuery = ListQuery.extend({
  type: z.string().regex(EVENT_TYPE_REGEX).optional(),
  status: EventStatus.optional(),
  tenant_id: TenantId.optional().describe('Only the events sent for this tenant.'),
});

const Attempt = z.object({
  round: z.number().int(),
  attempt: z.number().int(),
  started_at: z.string(),
  duration_ms: z.number().int(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  response_body: z.string().nullable().describe('First 4 KiB of the response body.'),
}).meta({ id: 'Attempt' });

export const Delivery = z.object({
  endpoint_id: z.string(),
  url: z.string().describe("The endpoint's HTTPS URL, or its broker destination's address (no credentials), when the delivery was last attempted."),
  status: z.enum(DELIVERY_STATUSES).meta({ id: 'DeliveryStatus' }),
  round: z.number().int(),
  attempt_count: z.number().int(),
  next_attempt_at: z.string().nullable(),
  paused: z
    .boolean()
    .describe(
      'Its next attempt came due while the endpoint was paused: it waits, `status` unchanged, and that attempt is made once the endpoint is resumed.',
    ),
  attempts: z.array(Attempt),
}).meta({ id: 'Delivery' });

export const EventDetail = z.object({ ...EventFields, deliveries: z.array(Delivery) }).meta({ id: 'EventWithDeliveries' });
export const EventList = pageOf(z.object(EventFields).meta({ id: 'Event' }), 'EventPage');

/** An instant: a date-time without Z or an offset (as a client's naive datetime is sent) names no one time; the refusal says what is missing. */
const Instant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with Z or an offset such as +02:00' });

export const RecoverBody = z.strictObject({
  since: Instant.describe(
    'An ISO 8601 date-time with Z or an offset such as +02:00, within the last 7 days: deliveries that ended failed or cancelled and were first attempted since then start again.',
  ).meta({ example: '2026-11-20T00:00:00Z' }),
}).meta({ id: 'RecoverRequest' });

export const Recovery = z.object({
  id: z.string().describe('The recovery workflow id, `recover-<endpoint id>` (visible in the Temporal UI).'),
  endpoint_id: z.string(),
  since: z.string(),
  count: z.number().int().describe('Deliveries this recovery starts again (at most 1,000, the oldest first).'),
  started_at: z.string(),
}).meta({ id: 'Recovery' });

export const RetryNowBody = z
  .strictObject({ cursor: Cursor.optional().describe('`next_cursor` of the previous call: continues after the deliveries it went through.') })
  .describe('Optional; an empty body starts from the first waiting delivery.')
  .meta({ id: 'RetryNowRequest' })
  .optional();

export const BulkRetryNow = z.object({
  woken: z.number().int().describe('Deliveries whose next attempt is now being made.'),
  not_waiting: z.number().int().describe('Deliveries found waiting that no longer were when woken (an attempt in flight, or ended meanwhile).'),
  next_cursor: z.string().nullable().describe('Send it as `cursor` to go on with the next deliveries; null when this call reached the last.'),
}).meta({ id: 'RetryNowResult' });

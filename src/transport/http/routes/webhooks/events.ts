import type { z } from 'zod';
import { ValidationError } from '../../../../domain/errors';
import { headerIdempotencyKey, IDEMPOTENCY_KEY_RULE, isIdempotencyKey } from '../../../../domain/webhooks/idempotency-key';
import { recordIngest } from '../../../../infra/metrics';
import { assertPositiveEventId, EventService, MAX_EVENT_DATA_BYTES } from '../../../../services/event-service';
import { accountOf, ownerOfCall, tenantForCall } from '../../middleware/key-scoped';
import type { RecordOwner } from '../../../../domain/webhooks/tenant';
import { BEARER, json, keyScopedResponses } from '../../responses';
import { defineRoute, RouteDefinition } from '../../route';
import { Delivery, EventDetail, EventIdParams, EventIngestBody, EventList, EventListQuery, IngestResponse, RetryParams } from './schemas';
import { EVENTS_PATH, recordIngestFailure, ticketOf } from './ingest-gate';

const tags = ['Webhook events'];


/** CONTRACT §4: ingest, status and history, listing, manual retry. */
export function eventRoutes(service: EventService) {
  return [
    defineRoute({
      method: 'post',
      path: EVENTS_PATH,
      summary: 'Ingest an event; it is delivered to every matching endpoint',
      description:
        'New event → 202, answered once the event is stored (its delivery workflows start right after, in the background; a crash of this process is recovered by another). A repeat of the same idempotency key (body field or `Idempotency-Key` header) by the same account within 24 h → 200 with the original body, and nothing is delivered again. When the platform is saturated → 503 `overloaded` with Retry-After; nothing was stored and the call is not counted against the limits (it is refused before its body is read, so a malformed body may get this 503 before its 400). A `type` starting `platform.` → 422 `reserved_event_type`: those are the operational events the platform emits about the account\'s own deliveries (`platform.endpoint.disabled`, `platform.endpoint.failing`, `platform.delivery.exhausted`), which an endpoint receives by subscribing to `platform.*` or to the exact type (`*` does not match them).',
      tags,
      security: BEARER,
      body: EventIngestBody,
      exactNumbersIn: { member: 'data', maxBytes: MAX_EVENT_DATA_BYTES },
      responses: keyScopedResponses(
        { 202: json('A new event, accepted for delivery.', IngestResponse), 200: json('A repeat: the original event.', IngestResponse) },
        400,
        413,
        422,
        503,
      ),
      // Counts every outcome of an admitted ingest, 400s included (this runs before the body is validated); a refusal is counted where it is decided.
      middleware: [
        async (ctx, next) => {
          await next().catch((err: unknown) => {
            recordIngestFailure(err);
            throw err;
          });
          recordIngest(ctx.status === 200 ? 'repeat' : 'accepted');
        },
      ],
      handler: async (ctx, { body }) => {
        // A header sent empty (an unset shell variable) is a key that breaks the rule, not no key: de-duplication off unseen.
        const headerSent = ctx.headers['idempotency-key'] !== undefined;
        const header = headerSent ? headerIdempotencyKey(ctx.get('Idempotency-Key')) : undefined;
        if (headerSent && (header === undefined || !isIdempotencyKey(header) || (body.idempotency_key !== undefined && body.idempotency_key !== header))) {
          throw new ValidationError(
            `Idempotency-Key header ${IDEMPOTENCY_KEY_RULE}, and match idempotency_key when both are given.`,
            [{ path: 'headers.Idempotency-Key', message: 'Invalid idempotency key' }],
          );
        }
        const tenantId = tenantForCall(ctx, body.tenant_id);
        const input = { ...body, idempotency_key: body.idempotency_key ?? header };
        const result = await service.ingest(ticketOf(ctx), { ...input, ...(tenantId !== undefined && { tenant_id: tenantId }) });
        ctx.status = result.created ? 202 : 200;
        ctx.body = result.body;
      },
    }),
    defineRoute({
      method: 'get',
      path: EVENTS_PATH,
      summary: 'List events (newest first; filter by type and status)',
      description:
        'Each event carries its `data`. A page ends early, with `next_cursor`, once it carries 1 MiB of event data, or (with `type` or `status`) once 200 events were examined; an event\'s `status` is derived from its deliveries when read.',
      tags,
      security: BEARER,
      query: EventListQuery,
      responses: keyScopedResponses({ 200: json('A page of events.', EventList) }, 400),
      handler: async (ctx, { query }) => {
        ctx.body = await service.list(accountOf(ctx), { ...query, tenant_id: tenantForCall(ctx, query.tenant_id) });
      },
    }),
    defineRoute({
      method: 'get',
      path: `${EVENTS_PATH}/:event_id`,
      summary: 'Delivery status and history of an event',
      tags,
      security: BEARER,
      params: EventIdParams,
      responses: keyScopedResponses({ 200: json('The event with every delivery and attempt.', EventDetail) }, 400, 404),
      handler: async (ctx, { params }) => {
        ctx.body = await service.get(ownerOfCall(ctx), assertPositiveEventId(params.event_id));
      },
    }),
    oneDelivery({
      action: 'retry',
      summary: 'Retry a failed or cancelled delivery (a new round from attempt 1)',
      accepted: 'The new round has started.',
      answer: (owner, eventId, endpointId) => service.retry(owner, eventId, endpointId),
    }),
  ];
}

interface OneDeliveryOperation extends Pick<RouteDefinition<z.ZodType, z.ZodType, z.ZodType>, 'summary' | 'description'> {
  /** After `/deliveries/:endpoint_id/`. */
  action: string;
  /** What the 202 with the delivery means. */
  accepted: string;
  /** `owner`: the call's (ownerOfCall), which the service puts in the filter of the event's read. */
  answer: (owner: RecordOwner, eventId: number, endpointId: string) => Promise<unknown>;
}

/**
 * A POST on one delivery of an event of the key's account: 400 for an event id not a positive integer, 409 for its state;
 * with a portal session, an event of another tenant (or of none) is a 404.
 */
export function oneDelivery({ action, accepted, answer, ...op }: OneDeliveryOperation) {
  return defineRoute({
    ...op,
    method: 'post',
    path: `${EVENTS_PATH}/:event_id/deliveries/:endpoint_id/${action}`,
    tags,
    security: BEARER,
    params: RetryParams,
    responses: keyScopedResponses({ 202: json(accepted, Delivery) }, 400, 404, 409),
    handler: async (ctx, { params }) => {
      const eventId = assertPositiveEventId(params.event_id);
      ctx.status = 202;
      ctx.body = await answer(ownerOfCall(ctx), eventId, params.endpoint_id);
    },
  });
}

import type { EventTypeService } from '../../../../services/event-type-service';
import { accountOf } from '../../middleware/key-scoped';
import { BEARER, json, keyScopedResponses } from '../../responses';
import { defineRoute } from '../../route';
import { EventType, EventTypeCreateBody, EventTypeList, EventTypeNameParams, EventTypePatchBody } from './event-type-schemas';
import { ListQuery } from './schemas';

const BASE = '/api/v1/webhooks/event-types';
const ONE = `${BASE}/:name`;
const tags = ['Webhook event types'];

/** The example is event data: its numbers are kept as sent, as an event's are (its size is bounded by the schema). */
const EXAMPLE_AS_SENT = { member: 'example' };

/** The account's event-type catalog (docs/event-types.md), scoped to the key's account: another account's type is a 404. */
export function eventTypeRoutes(service: EventTypeService) {
  return [
    defineRoute({
      method: 'post',
      path: BASE,
      summary: 'Register an event type, with an optional JSON Schema for its data',
      description:
        'A name already in the catalog → 409 `event_type_exists` (change it with PATCH). ' +
        `An account has at most ${service.maxPerAccount} event types: one more → 422 \`event_type_limit_reached\`. ` +
        'Events of a type with a schema are checked against it at ingest; types not in the catalog are accepted as before.',
      tags,
      security: BEARER,
      body: EventTypeCreateBody,
      exactNumbersIn: EXAMPLE_AS_SENT,
      responses: keyScopedResponses({ 201: json('The registered event type.', EventType) }, 400, 409, 422),
      handler: async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = await service.create(accountOf(ctx), body);
      },
    }),
    defineRoute({
      method: 'get',
      path: BASE,
      summary: 'List event types (by name)',
      tags,
      security: BEARER,
      query: ListQuery,
      responses: keyScopedResponses({ 200: json('A page of event types.', EventTypeList) }, 400),
      handler: async (ctx, { query }) => {
        ctx.body = await service.list(accountOf(ctx), query.limit, query.cursor);
      },
    }),
    defineRoute({
      method: 'get',
      path: ONE,
      summary: 'Get an event type',
      tags,
      security: BEARER,
      params: EventTypeNameParams,
      responses: keyScopedResponses({ 200: json('The event type.', EventType) }, 400, 404),
      handler: async (ctx, { params }) => {
        ctx.body = await service.get(accountOf(ctx), params.name);
      },
    }),
    defineRoute({
      method: 'patch',
      path: ONE,
      summary: 'Change an event type (description, schema, example)',
      description: 'A new schema applies to the next ingest in this process at once, and in every other API process within about a second.',
      tags,
      security: BEARER,
      params: EventTypeNameParams,
      body: EventTypePatchBody,
      exactNumbersIn: EXAMPLE_AS_SENT,
      responses: keyScopedResponses({ 200: json('The updated event type.', EventType) }, 400, 404, 409, 422),
      handler: async (ctx, { params, body }) => {
        ctx.body = await service.update(accountOf(ctx), params.name, body);
      },
    }),
    defineRoute({
      method: 'delete',
      path: ONE,
      summary: 'Delete an event type; its events are accepted unchecked from then on',
      tags,
      security: BEARER,
      params: EventTypeNameParams,
      responses: keyScopedResponses({ 204: { description: 'Deleted.' } }, 400, 404),
      handler: async (ctx, { params }) => {
        await service.delete(accountOf(ctx), params.name);
        ctx.status = 204;
      },
    }),
  ];
}

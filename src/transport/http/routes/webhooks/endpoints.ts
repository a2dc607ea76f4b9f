import type { Context } from 'koa';
import type { Principal } from '../../../../services/key-authenticator';
import type { EndpointService } from '../../../../services/endpoint-service';
import { BEARER, json, keyScopedResponses } from '../../responses';
import { defineRoute } from '../../route';
import {
  Endpoint,
  EndpointCreateBody,
  EndpointIdParams,
  EndpointList,
  EndpointPatchBody,
  EndpointWithSecret,
  ListQuery,
  SecretBody,
} from './schemas';

const BASE = '/api/v1/webhooks/endpoints';
const tags = ['Webhook endpoints'];
const account = (ctx: Context) => (ctx.state.principal as Principal).account._id;

/** CONTRACT §3: the endpoint operations, each scoped to the key's account. */
export function endpointRoutes(service: EndpointService) {
  return [
    defineRoute({
      method: 'post',
      path: BASE,
      summary: 'Register a destination endpoint',
      description:
        'Returns the endpoint with its `whsec_` signing secret. URL problems: malformed → 400; not https, credentials, a private/reserved destination, ' +
        'or a host name whose DNS lookup does not finish within the DNS time-out (`dns_timeout`) → 422. ' +
        `An account has at most ${service.maxEndpointsPerAccount} endpoints, disabled ones included: one more → 422 \`endpoint_limit_reached\`.`,
      tags,
      security: BEARER,
      body: EndpointCreateBody,
      responses: keyScopedResponses({ 201: json('The registered endpoint, with its secret.', EndpointWithSecret) }, 400, 422),
      handler: async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = await service.create(account(ctx), body);
      },
    }),
    defineRoute({
      method: 'get',
      path: BASE,
      summary: 'List endpoints (newest first, no secrets)',
      tags,
      security: BEARER,
      query: ListQuery,
      responses: keyScopedResponses({ 200: json('A page of endpoints.', EndpointList) }, 400),
      handler: async (ctx, { query }) => {
        ctx.body = await service.list(account(ctx), query.limit, query.cursor);
      },
    }),
    defineRoute({
      method: 'get',
      path: `${BASE}/:id`,
      summary: 'Get an endpoint (no secret)',
      tags,
      security: BEARER,
      params: EndpointIdParams,
      responses: keyScopedResponses({ 200: json('The endpoint.', Endpoint) }, 400, 404),
      handler: async (ctx, { params }) => {
        ctx.body = await service.get(account(ctx), params.id);
      },
    }),
    defineRoute({
      method: 'patch',
      path: `${BASE}/:id`,
      summary: 'Change an endpoint (url, events, description, disabled)',
      tags,
      security: BEARER,
      params: EndpointIdParams,
      body: EndpointPatchBody,
      responses: keyScopedResponses({ 200: json('The updated endpoint.', Endpoint) }, 400, 404, 422),
      handler: async (ctx, { params, body }) => {
        ctx.body = await service.update(account(ctx), params.id, body);
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${BASE}/:id`,
      summary: 'Delete an endpoint; its pending retries end cancelled',
      tags,
      security: BEARER,
      params: EndpointIdParams,
      responses: keyScopedResponses({ 204: { description: 'Deleted.' } }, 400, 404),
      handler: async (ctx, { params }) => {
        await service.delete(account(ctx), params.id);
        ctx.status = 204;
      },
    }),
    defineRoute({
      method: 'get',
      path: `${BASE}/:id/secret`,
      summary: "Get the endpoint's signing secret",
      tags,
      security: BEARER,
      params: EndpointIdParams,
      responses: keyScopedResponses({ 200: json('The secret.', SecretBody) }, 400, 404),
      handler: async (ctx, { params }) => {
        ctx.body = { secret: await service.getSecret(account(ctx), params.id) };
      },
    }),
    defineRoute({
      method: 'post',
      path: `${BASE}/:id/secret/rotate`,
      summary: 'Rotate the signing secret; the new one signs every later attempt',
      tags,
      security: BEARER,
      params: EndpointIdParams,
      responses: keyScopedResponses({ 200: json('The new secret.', SecretBody) }, 400, 404),
      handler: async (ctx, { params }) => {
        ctx.body = { secret: await service.rotateSecret(account(ctx), params.id) };
      },
    }),
  ];
}

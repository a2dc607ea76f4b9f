import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import type { EndpointService } from '../../../../services/endpoint-service';
import type { EventService } from '../../../../services/event-service';
import type { RecordOwner } from '../../../../domain/webhooks/tenant';
import { accountOf, ownerOfCall, tenantForCall } from '../../middleware/key-scoped';
import { BEARER, json, keyScopedResponses } from '../../responses';
import { defineRoute, RouteDefinition } from '../../route';
import {
  Endpoint,
  EndpointCreateBody,
  EndpointIdParams,
  EndpointList,
  EndpointListQuery,
  EndpointPatchBody,
  EndpointWithSecret,
  RecoverBody,
  Recovery,
  RotateSecretBody,
  SecretBody,
} from './schemas';

const BASE = '/api/v1/webhooks/endpoints';
const tags = ['Webhook endpoints'];

interface OneEndpointOperation<B extends z.ZodType> extends Pick<RouteDefinition<z.ZodType, z.ZodType, B>, 'method' | 'summary' | 'description' | 'body'> {
  /** After `/:id`. */
  path?: string;
  /** The success status and its response; a body-less status (204) answers nothing. */
  success: [status: number, response: ResponseConfig];
  /** Beyond 400 (a malformed id) and 404 (no such endpoint in the key's account). */
  moreErrors?: number[];
  /** `owner`: the call's (ownerOfCall), which the service puts in the filter of every read and write of the endpoint. */
  answer: (owner: RecordOwner, endpointId: string, body: z.infer<B>) => Promise<unknown>;
}

/**
 * An operation on one endpoint of the key's account, so another account's endpoint is a 404; with a portal session, another
 * tenant's (or the account's own) is a 404 too, and a body naming another tenant a 403.
 */
export function oneEndpoint<B extends z.ZodType = z.ZodType>({ path = '', success: [status, response], moreErrors = [], answer, ...op }: OneEndpointOperation<B>) {
  return defineRoute({
    ...op,
    path: `${BASE}/:id${path}`,
    tags,
    security: BEARER,
    params: EndpointIdParams,
    responses: keyScopedResponses({ [status]: response }, 400, 404, ...moreErrors),
    handler: async (ctx, { params, body }) => {
      tenantForCall(ctx, (body as { tenant_id?: string | null } | undefined)?.tenant_id);
      const answered = await answer(ownerOfCall(ctx), params.id, body);
      ctx.status = status;
      if (status !== 204) ctx.body = answered;
    },
  });
}

/** CONTRACT §3: the endpoint operations, each scoped to the key's account. */
export function endpointRoutes(service: EndpointService, recovery: EventService) {
  return [
    defineRoute({
      method: 'post',
      path: BASE,
      summary: 'Register a destination endpoint',
      description:
        'Returns the endpoint with its `whsec_` signing secret. URL problems: malformed → 400; not https, credentials, a private/reserved destination, ' +
        'or a host name whose DNS lookup does not finish within the DNS time-out (`dns_timeout`) → 422. ' +
        `An account has at most ${service.maxEndpointsPerAccount} endpoints, disabled ones included: one more → 422 \`endpoint_limit_reached\`. ` +
        `A tenant has at most ${service.tenantCaps.endpointsPerTenant} (422 \`tenant_endpoint_limit_reached\`), and an account at most ${service.tenantCaps.tenantsPerAccount} tenants (422 \`tenant_limit_reached\`).`,
      tags,
      security: BEARER,
      body: EndpointCreateBody,
      responses: keyScopedResponses({ 201: json('The registered endpoint, with its secret.', EndpointWithSecret) }, 400, 422),
      handler: async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = await service.create(accountOf(ctx), { ...body, tenant_id: tenantForCall(ctx, body.tenant_id) });
      },
    }),
    defineRoute({
      method: 'get',
      path: BASE,
      summary: 'List endpoints (newest first, no secrets; filter by tenant)',
      tags,
      security: BEARER,
      query: EndpointListQuery,
      responses: keyScopedResponses({ 200: json('A page of endpoints.', EndpointList) }, 400),
      handler: async (ctx, { query }) => {
        ctx.body = await service.list(accountOf(ctx), query.limit, query.cursor, tenantForCall(ctx, query.tenant_id));
      },
    }),
    oneEndpoint({
      method: 'get',
      summary: 'Get an endpoint (no secret)',
      success: [200, json('The endpoint.', Endpoint)],
      answer: (accountId, id) => service.get(accountId, id),
    }),
    oneEndpoint({
      method: 'patch',
      summary: 'Change an endpoint (url, events, description, limits, disabled)',
      body: EndpointPatchBody,
      success: [200, json('The updated endpoint.', Endpoint)],
      moreErrors: [422],
      answer: (accountId, id, body) => service.update(accountId, id, body),
    }),
    oneEndpoint({
      method: 'delete',
      summary: 'Delete an endpoint; its pending retries end cancelled',
      success: [204, { description: 'Deleted.' }],
      answer: (accountId, id) => service.delete(accountId, id),
    }),
    oneEndpoint({
      method: 'get',
      path: '/secret',
      summary: "Get the endpoint's signing secret",
      success: [200, json('The secret.', SecretBody)],
      answer: async (accountId, id) => ({ secret: await service.getSecret(accountId, id) }),
    }),
    oneEndpoint({
      method: 'post',
      path: '/secret/rotate',
      summary: 'Rotate the signing secret; the new one signs every later attempt, the old one keeps signing webhook-signature during a grace period',
      description:
        'Every attempt carries `X-Webhook-Signature` (the spec scheme, newest secret only) and the Standard Webhooks headers `webhook-id`, `webhook-timestamp` ' +
        'and `webhook-signature` (one `v1,<base64>` entry per secret alive, newest first, space-separated). See docs/receiving.md.',
      body: RotateSecretBody,
      success: [200, json('The new secret.', SecretBody)],
      answer: async (accountId, id, body) => ({ secret: await service.rotateSecret(accountId, id, body?.grace_period_seconds) }),
    }),
    oneEndpoint({
      method: 'post',
      path: '/recover',
      summary: 'Start again every failed or cancelled delivery to the endpoint since a time',
      description:
        'Every delivery to this endpoint that ended `failed` or `cancelled` and was first attempted since `since` starts a new round, ' +
        'as a manual retry would (same rules: at most 10 rounds; one in flight is left alone). Answers 202 with how many ' +
        'deliveries the recovery starts again (at most 1,000, the oldest first) while it runs as the Temporal workflow ' +
        '`recover-<endpoint id>`. While it runs, calling again answers the same recovery. `since` more than 7 days back or in the ' +
        'future → 400; a disabled endpoint → 409 `endpoint_disabled` (enable it first).',
      body: RecoverBody,
      success: [202, json('The running recovery.', Recovery)],
      moreErrors: [409],
      answer: (accountId, endpointId, body) => recovery.recover(accountId, endpointId, new Date(body.since)),
    }),
  ];
}

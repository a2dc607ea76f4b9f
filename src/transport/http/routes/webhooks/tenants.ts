import type { EndpointService } from '../../../../services/endpoint-service';
import type { TenantService } from '../../../../services/tenant-service';
import { accountOf } from '../../middleware/key-scoped';
import { BEARER, json, keyScopedResponses } from '../../responses';
import { defineRoute } from '../../route';
import { ListQuery } from './schemas';
import { TenantIdParams, TenantList } from './tenant-schemas';

const BASE = '/api/v1/webhooks/tenants';
const tags = ['Webhook tenants'];

/** The key's account's tenants (docs/tenants-and-portal.md). */
export function tenantRoutes(service: TenantService, endpoints: Pick<EndpointService, 'tenantCaps'>) {
  return [
    defineRoute({
      method: 'get',
      path: BASE,
      summary: "List the account's tenants with their endpoint counts (newest first)",
      description:
        'A tenant exists while it has at least one endpoint: it appears with its first endpoint (`tenant_id` on `POST /api/v1/webhooks/endpoints`) and goes with its last. ' +
        `An account has at most ${endpoints.tenantCaps.tenantsPerAccount} tenants, each at most ${endpoints.tenantCaps.endpointsPerTenant} endpoints.`,
      tags,
      security: BEARER,
      query: ListQuery,
      responses: keyScopedResponses({ 200: json('A page of tenants.', TenantList) }, 400),
      handler: async (ctx, { query }) => {
        ctx.body = await service.list(accountOf(ctx), query.limit, query.cursor);
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${BASE}/:tenant_id`,
      summary: "Delete a tenant: its endpoints are deleted, and their waiting deliveries end cancelled",
      description:
        'Each of the tenant\'s endpoints is deleted as `DELETE /api/v1/webhooks/endpoints/{id}` deletes it (its pending retries end `cancelled`, a page at a time), ' +
        'one endpoint after another. Its portal sessions end first (their tokens are 401 from then on). Its events stay, and can still be listed with `?tenant_id=`. ' +
        'An endpoint created for the tenant with the key while this runs may be left. A tenant with neither endpoint nor portal session → 404.',
      tags,
      security: BEARER,
      params: TenantIdParams,
      responses: keyScopedResponses({ 204: { description: 'Deleted.' } }, 400, 404),
      handler: async (ctx, { params }) => {
        await service.delete(accountOf(ctx), params.tenant_id);
        ctx.status = 204;
      },
    }),
  ];
}

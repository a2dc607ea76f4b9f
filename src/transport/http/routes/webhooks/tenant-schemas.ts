import { z } from 'zod';
import { TENANT_ID_REGEX, TENANT_ID_RULE } from '../../../../domain/webhooks/tenant';

const TENANT_RULE =
  `Your customer this belongs to, named by your own id for it: ${TENANT_ID_RULE}. ` +
  'An event with a `tenant_id` is delivered only to the matching endpoints of that tenant; an event without one only to the account\'s endpoints that have none. ' +
  'One tenant\'s events never reach another tenant, and there is no broadcast to every tenant (docs/tenants-and-portal.md).';

export const TenantId = z.string().regex(TENANT_ID_REGEX, TENANT_ID_RULE).describe(TENANT_RULE).meta({ id: 'TenantId', example: 'cus_8f14e45f' });

export const TenantIdParams = z.object({ tenant_id: TenantId });

export const Tenant = z
  .object({
    tenant_id: z.string(),
    endpoint_count: z.number().int().describe('Its endpoints, disabled ones included (what its cap counts).'),
    created_at: z.string().describe('When its first endpoint (since it last had none) was created, ISO 8601 UTC.'),
  })
  .describe('A tenant exists while it has at least one endpoint.')
  .meta({ id: 'Tenant' });

export const TenantList = z.object({ data: z.array(Tenant), next_cursor: z.string().nullable() }).meta({ id: 'TenantPage' });

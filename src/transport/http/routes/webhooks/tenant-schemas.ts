import { z } from 'zod';
import { TENANT_ID_REGEX, TENANT_ID_RULE } from '../../../../domain/webhooks/tenant';
import { DEFAULT_PORTAL_SESSION_SECONDS, MAX_PORTAL_SESSION_SECONDS, MIN_PORTAL_SESSION_SECONDS } from '../../../../domain/webhooks/portal-session';

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

export const PortalSessionBody = z
  .strictObject({
    tenant_id: TenantId,
    expires_in_seconds: z
      .number()
      .int()
      .min(MIN_PORTAL_SESSION_SECONDS)
      .max(MAX_PORTAL_SESSION_SECONDS)
      .default(DEFAULT_PORTAL_SESSION_SECONDS)
      .describe(`How long the token works: ${MIN_PORTAL_SESSION_SECONDS} to ${MAX_PORTAL_SESSION_SECONDS} seconds (24 h), default ${DEFAULT_PORTAL_SESSION_SECONDS} (1 h).`),
    read_only: z.boolean().default(false).describe('A read-only token gets 403 `portal_read_only` on every call but GET.'),
  })
  .meta({ id: 'CreatePortalSessionRequest' });

export const PortalSession = z
  .object({
    url: z.string().describe("The tenant's portal page, the token in its fragment (never sent to a server)."),
    token: z.string().describe('`whpt_` + 43 base64url characters: `Authorization: Bearer <token>` on the endpoint and event paths, for this tenant only. Shown only here.'),
    expires_at: z.string().describe('ISO 8601 UTC.'),
    tenant_id: z.string(),
    read_only: z.boolean(),
  })
  .meta({ id: 'PortalSession' });

export const PortalSessionsRevoked = z.object({ revoked: z.number().int().describe('Sessions ended by this call.') }).meta({ id: 'PortalSessionsRevoked' });

import { z } from 'zod';
import { isDotSegment } from '../../../../domain/webhooks/path-segment';
import { TENANT_ID_REGEX, TENANT_ID_RULE } from '../../../../domain/webhooks/tenant';
import {
  ACCENT_COLOR_REGEX,
  isLogoUrl,
  MAX_LOGO_URL_LENGTH,
  MAX_PORTAL_NAME_LENGTH,
  MAX_PORTAL_ORIGINS,
  normalizedOrigin,
  ORIGIN_RULE,
} from '../../../../domain/webhooks/portal-settings';
import { DEFAULT_PORTAL_SESSION_SECONDS, MAX_PORTAL_SESSION_SECONDS, MIN_PORTAL_SESSION_SECONDS } from '../../../../domain/webhooks/portal-session';

const TENANT_RULE =
  `Your customer this belongs to, named by your own id for it: ${TENANT_ID_RULE}. ` +
  'An event with a `tenant_id` is delivered only to the matching endpoints of that tenant; an event without one only to the account\'s endpoints that have none. ' +
  'One tenant\'s events never reach another tenant, and there is no broadcast to every tenant (docs/tenants-and-portal.md).';

export const TenantId = z.string().regex(TENANT_ID_REGEX, TENANT_ID_RULE).refine((id) => !isDotSegment(id), TENANT_ID_RULE).describe(TENANT_RULE).meta({ id: 'TenantId', example: 'cus_8f14e45f' });

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
    url: z.string().describe("The tenant's portal page, `<origin>/portal/<account id>#token=<token>`: the token in its fragment (never sent to a server)."),
    token: z.string().describe('`whpt_` + 43 base64url characters: `Authorization: Bearer <token>` on the endpoint and event paths, for this tenant only. Shown only here.'),
    expires_at: z.string().describe('ISO 8601 UTC.'),
    tenant_id: z.string(),
    read_only: z.boolean(),
  })
  .meta({ id: 'PortalSession' });

export const PortalSessionsRevoked = z.object({ revoked: z.number().int().describe('Sessions ended by this call.') }).meta({ id: 'PortalSessionsRevoked' });

const AllowedOrigin = z.string().refine((value) => normalizedOrigin(value) !== undefined, `must be ${ORIGIN_RULE}`);

export const PortalSettingsBody = z
  .strictObject({
    allowed_origins: z
      .array(AllowedOrigin)
      .max(MAX_PORTAL_ORIGINS)
      .optional()
      .describe(
        `The origins whose pages may show the portal in an iframe (CSP \`frame-ancestors\`), at most ${MAX_PORTAL_ORIGINS}, each ${ORIGIN_RULE}. ` +
          'Stored as browsers send them (`https://App.Example.com:443/` is `https://app.example.com`), repeats once. Every other origin is refused; `[]` (the default): no page may frame it. Replaces the list.',
      )
      .meta({ example: ['https://app.example.com'] }),
    name: z.string().min(1).max(MAX_PORTAL_NAME_LENGTH).nullable().optional().describe('Shown as the portal\'s title (null: "Webhooks").'),
    logo_url: z
      .string()
      .refine(isLogoUrl, `must be an https URL of at most ${MAX_LOGO_URL_LENGTH} characters`)
      .nullable()
      .optional()
      .describe("An https image shown beside the name; the page's CSP allows images from its origin only."),
    accent_color: z
      .string()
      .regex(ACCENT_COLOR_REGEX, 'must be a colour as # and six lower-case hex digits, e.g. #0a7f5c')
      .nullable()
      .optional()
      .describe('Buttons and links (null: the default blue).'),
  })
  .meta({ id: 'UpdatePortalSettingsRequest' });

export const PortalSettingsView = z
  .object({
    allowed_origins: z.array(z.string()),
    name: z.string().nullable(),
    logo_url: z.string().nullable(),
    accent_color: z.string().nullable(),
  })
  .meta({ id: 'PortalSettings' });

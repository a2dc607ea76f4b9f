import type { PortalSettingsService } from '../../../../services/portal-settings-service';
import { accountOf } from '../../middleware/key-scoped';
import { BEARER, json, keyScopedResponses } from '../../responses';
import { defineRoute } from '../../route';
import { PortalSettingsBody, PortalSettingsView } from './tenant-schemas';

const BASE = '/api/v1/webhooks/portal-settings';
const tags = ['Webhook tenants'];

/** The account's portal settings: read with the key or a portal session (the page brands itself with them), changed with the key only. */
export function portalSettingsRoutes(service: PortalSettingsService) {
  return [
    defineRoute({
      method: 'get',
      path: BASE,
      summary: "The tenants' portal page settings: the origins that may frame it, and its branding",
      description: 'Also readable with a portal session\'s token (the page shows its branding from it).',
      tags,
      security: BEARER,
      responses: keyScopedResponses({ 200: json('The settings.', PortalSettingsView) }),
      handler: async (ctx) => {
        ctx.body = await service.get(accountOf(ctx));
      },
    }),
    defineRoute({
      method: 'patch',
      path: BASE,
      summary: "Change the tenants' portal page settings",
      description:
        'The fields given are set, the others kept. `allowed_origins` is the page\'s CSP `frame-ancestors` from the next page load on: ' +
        'only those origins may show it in an iframe (docs/tenants-and-portal.md, "Embedding").',
      tags,
      security: BEARER,
      body: PortalSettingsBody,
      responses: keyScopedResponses({ 200: json('The settings.', PortalSettingsView) }, 400),
      handler: async (ctx, { body }) => {
        ctx.body = await service.update(accountOf(ctx), body);
      },
    }),
  ];
}

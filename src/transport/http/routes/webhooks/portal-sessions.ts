import type { PortalSessionService } from '../../../../services/portal-session-service';
import { accountOf } from '../../middleware/key-scoped';
import { BEARER, json, keyScopedResponses } from '../../responses';
import { defineRoute } from '../../route';
import { portalPageUrl } from '../../portal-page-url';
import { PortalSession, PortalSessionBody, PortalSessionsRevoked } from './tenant-schemas';

const BASE = '/api/v1/webhooks/portal-sessions';
const tags = ['Webhook tenants'];

/** Portal sessions, made and revoked with the account's key only (a session's own token gets 403 here). */
export function portalSessionRoutes(service: PortalSessionService, publicOrigin: string | undefined) {
  return [
    defineRoute({
      method: 'post',
      path: BASE,
      summary: "Make a short-lived token for one tenant's people (a portal session)",
      description:
        'The token works as `Authorization: Bearer <token>` on the endpoint and event paths of this API (endpoints, their secret, rotation, pause and resume, ' +
        "retry-now, recovery; events, their deliveries; ingest, as a test event) and sees and changes only the tenant's own records: any other record is a 404, " +
        'naming another tenant a 403 `portal_not_allowed`, any other path a 403. A read-only token gets 403 `portal_read_only` on every change. An expired, ' +
        'revoked or forged token is a 401 `invalid_portal_token`. Its calls count against the account\'s limits, with the same headers. The token is stored ' +
        'only as its SHA-256 and is never an API key.',
      tags,
      security: BEARER,
      body: PortalSessionBody,
      responses: keyScopedResponses({ 201: json('The session, with its token (shown only here).', PortalSession) }, 400),
      handler: async (ctx, { body }) => {
        ctx.status = 201;
        ctx.body = await service.create(accountOf(ctx), body, portalPageUrl(ctx, publicOrigin, accountOf(ctx)));
      },
    }),
    defineRoute({
      method: 'delete',
      path: BASE,
      summary: "Revoke every portal session of the account",
      description: 'Every token handed out so far stops working at once (401 `invalid_portal_token`).',
      tags,
      security: BEARER,
      responses: keyScopedResponses({ 200: json('How many sessions were ended.', PortalSessionsRevoked) }),
      handler: async (ctx) => {
        ctx.body = { revoked: await service.revokeAll(accountOf(ctx)) };
      },
    }),
  ];
}

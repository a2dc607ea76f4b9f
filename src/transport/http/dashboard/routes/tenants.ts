import type { Context } from 'koa';
import { DomainError } from '../../../../domain/errors';
import type { ActiveSession } from '../../../../services/dashboard-auth-service';
import { portalPageUrl } from '../../portal-page-url';
import { parseInput } from '../../route';
import { PortalSessionBody, TenantIdParams } from '../../routes/webhooks/tenant-schemas';
import type { DashboardDeps } from '../deps';
import { meteredAction } from '../metered-action';
import { describeError, isFormError, queryField, queryNotice, seeOther, sendErrorPage, sendHtml } from '../render';
import type { SignedInRouter } from '../session';
import { deleteTenantPage, TENANTS_PATH, tenantsPage, type TenantsView } from '../templates/tenants';

const PAGE_SIZE = 20;

/** The path's tenant id, checked by the API's own schema (a malformed one is its 400, in its words). */
const tenantIdOf = (ctx: Context) => parseInput(TenantIdParams, { tenant_id: ctx.params.tenant_id }, 'path').tenant_id;

/** The account's tenants (what `GET /api/v1/webhooks/tenants` lists), each with its portal and its delete. */
export function tenantRoutes(pages: SignedInRouter, deps: DashboardDeps): void {
  const listPage = async (ctx: Context, session: ActiveSession, extra: Pick<TenantsView, 'error' | 'details'>, err?: DomainError) => {
    const cursor = queryField(ctx, 'cursor') || undefined;
    const page = await deps.tenants.list(session.account._id, PAGE_SIZE, cursor);
    sendErrorPage(ctx, err, tenantsPage(session, { tenants: page.data, nextCursor: page.next_cursor, isFirstPage: !cursor, notice: queryNotice(ctx), ...extra }));
  };

  pages.get('/tenants', (ctx, session) => listPage(ctx, session, {}));

  /**
   * A portal session as `POST /api/v1/webhooks/portal-sessions` makes one with the API's defaults (the same schema fills
   * them in), metered as that call; the answer sends the browser on to the session's link, token in its fragment.
   */
  pages.post('/tenants/:tenant_id/portal-session', async (ctx, session) => {
    try {
      const created = await meteredAction(ctx, session, deps, async () => {
        const body = parseInput(PortalSessionBody, { tenant_id: tenantIdOf(ctx) }, 'body');
        return deps.portalSessions.create(session.account._id, body, portalPageUrl(ctx, deps.publicOrigin, session.account._id));
      });
      seeOther(ctx, created.url);
    } catch (err) {
      if (!isFormError(err)) throw err;
      await listPage(ctx, session, describeError(err), err);
    }
  });

  pages.get('/tenants/:tenant_id/delete', async (ctx, session) => {
    const tenantId = tenantIdOf(ctx);
    const { data } = await deps.endpoints.list(session.account._id, 1, undefined, tenantId);
    if (data.length === 0) throw new DomainError('not_found', `Tenant ${tenantId} not found (it has no endpoints).`);
    sendHtml(ctx, 200, deleteTenantPage(session, tenantId));
  });

  /** As `DELETE /api/v1/webhooks/tenants/{tenant_id}`: its endpoints deleted one after another, their waiting deliveries cancelled. */
  pages.post('/tenants/:tenant_id/delete', async (ctx, session) => {
    await meteredAction(ctx, session, deps, () => deps.tenants.delete(session.account._id, tenantIdOf(ctx)));
    seeOther(ctx, `${TENANTS_PATH}?notice=tenant-deleted`);
  });
}

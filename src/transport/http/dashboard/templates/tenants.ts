import { DEFAULT_PORTAL_SESSION_SECONDS } from '../../../../domain/webhooks/portal-session';
import type { ActiveSession } from '../../../../services/dashboard-auth-service';
import type { TenantView } from '../../../../services/tenant-service';
import { html, SafeHtml } from '../html';
import { integer, period, time } from './format';
import { confirmForm, csrfField, errorBox, type Feedback, page } from './layout';
import { type ListPage, listSection, pagination } from './list-section';

export const TENANTS_PATH = '/dashboard/tenants';

export const tenantPath = (tenantId: string) => `${TENANTS_PATH}/${encodeURIComponent(tenantId)}`;
/** The endpoints page filtered to one tenant. */
export const tenantEndpointsPath = (tenantId: string) => `/dashboard/endpoints?tenant_id=${encodeURIComponent(tenantId)}`;

/**
 * "Open portal" posts (with the CSRF token) into a new tab, which the answer redirects to the new session's link: the
 * token travels only in that answer, never in a URL this dashboard is asked for. Not `noreferrer`: that would send the
 * POST with `Origin: null`, which the CSRF check refuses.
 */
function openPortalForm(t: TenantView, csrfToken: string): SafeHtml {
  return html`<form method="post" action="${tenantPath(t.tenant_id)}/portal-session" target="_blank" rel="noopener">${csrfField(csrfToken)}<button type="submit" class="small">Open portal<span class="visually-hidden"> of ${t.tenant_id}</span></button></form>`;
}

export interface TenantsView extends Feedback, ListPage {
  tenants: TenantView[];
}

export function tenantsPage(session: ActiveSession, view: TenantsView): SafeHtml {
  return page(
    { title: 'Tenants', session, active: 'tenants', notice: view.notice },
    html`<h1>Tenants</h1>
<p class="lead">Your customers, each named by the <code>tenant_id</code> you give its endpoints and events. A tenant appears with its first endpoint and goes with its last.</p>
${errorBox(view.error, view.details)}
${listSection({
  heading: 'Your tenants',
  columns: ['Tenant', { numeric: 'Endpoints' }, 'Since', html`<span class="visually-hidden">Actions</span>`],
  items: view.tenants,
  row: (t) => html`<tr data-tenant-id="${t.tenant_id}">
      <td><code>${t.tenant_id}</code></td>
      <td class="num"><a href="${tenantEndpointsPath(t.tenant_id)}">${integer(t.endpoint_count)}</a></td>
      <td>${time(t.created_at)}</td>
      <td><div class="actions">${openPortalForm(t, session.csrfToken)}<a class="button small danger" href="${tenantPath(t.tenant_id)}/delete">Delete<span class="visually-hidden"> tenant ${t.tenant_id}</span></a></div></td>
    </tr>`,
  empty: view.isFirstPage ? html`No tenants yet: create an endpoint with a <code>tenant_id</code> (<code>POST /api/v1/webhooks/endpoints</code>).` : 'No more tenants.',
  below: html`${pagination('Tenant pages', 'tenants', (cursor) => `${TENANTS_PATH}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, view)}
<p class="muted">Open portal makes a portal session for the tenant, as <code>POST /api/v1/webhooks/portal-sessions</code> does (it lasts ${period(DEFAULT_PORTAL_SESSION_SECONDS * 1000)}), and opens its page in a new tab, where the tenant's endpoints and deliveries are managed with its token.</p>`,
})}`,
  );
}

export function deleteTenantPage(session: ActiveSession, tenantId: string): SafeHtml {
  return page(
    { title: 'Delete tenant', session, active: 'tenants' },
    html`<h1>Delete tenant <code>${tenantId}</code>?</h1>
<p>Each of <a href="${tenantEndpointsPath(tenantId)}">its endpoints</a> is deleted and receives nothing more; their pending retries are cancelled. Its events stay, and its portal sessions see nothing left. This cannot be undone.</p>
${confirmForm(`${tenantPath(tenantId)}/delete`, session.csrfToken, 'Delete tenant', TENANTS_PATH)}`,
  );
}

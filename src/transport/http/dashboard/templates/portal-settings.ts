import { MAX_PORTAL_NAME_LENGTH, MAX_PORTAL_ORIGINS, type PortalSettings } from '../../../../domain/webhooks/portal-settings';
import type { ActiveSession } from '../../../../services/dashboard-auth-service';
import { html, SafeHtml } from '../html';
import { type Feedback, formCard, page } from './layout';

/** The form as typed: origins one per line; an empty field is no value (the default). */
export interface PortalSettingsForm {
  allowed_origins: string;
  name: string;
  logo_url: string;
  accent_color: string;
}

export const portalSettingsForm = (settings: PortalSettings): PortalSettingsForm => ({
  allowed_origins: settings.allowed_origins.join('\n'),
  name: settings.name ?? '',
  logo_url: settings.logo_url ?? '',
  accent_color: settings.accent_color ?? '',
});

const field = (id: string, label: string, value: string, hint: string, extra?: SafeHtml) =>
  html`<div class="field">
    <label for="portal-${id}">${label} <span class="muted">(optional)</span></label>
    <input id="portal-${id}" name="${id}" type="text" value="${value}" aria-describedby="portal-${id}-hint"${extra}>
    <p class="hint" id="portal-${id}-hint">${hint}</p>
  </div>`;

export function portalSettingsPage(session: ActiveSession, view: Feedback & { form: PortalSettingsForm }): SafeHtml {
  const { form } = view;
  return page(
    { title: 'Tenant portal', session, active: 'portal', notice: view.notice },
    html`<h1>Tenant portal</h1>
<p>Your customers (tenants) manage their own webhooks in the portal, opened with a link from <code>POST /api/v1/webhooks/portal-sessions</code>.
Here you decide which of your sites may show it in an iframe, and how it looks.</p>
${formCard({
  id: 'portal-settings-heading',
  heading: 'Embedding and branding',
  feedback: view,
  action: '/dashboard/portal',
  csrfToken: session.csrfToken,
  submit: 'Save portal settings',
  fields: html`<div class="field">
    <label for="portal-allowed_origins">Origins allowed to embed the portal</label>
    <textarea id="portal-allowed_origins" name="allowed_origins" rows="3" aria-describedby="portal-allowed_origins-hint">${form.allowed_origins}</textarea>
    <p class="hint" id="portal-allowed_origins-hint">One per line, at most ${MAX_PORTAL_ORIGINS}, such as <code>https://app.example.com</code> (<code>http://</code> only for localhost). Every other site is refused; none: the portal opens only in a tab of its own.</p>
  </div>
  ${field('name', 'Name', form.name, `Shown as the portal's title (up to ${MAX_PORTAL_NAME_LENGTH} characters); empty: “Webhooks”.`, html` maxlength="${MAX_PORTAL_NAME_LENGTH}"`)}
  ${field('logo_url', 'Logo URL', form.logo_url, 'An https image shown beside the name.')}
  ${field('accent_color', 'Accent colour', form.accent_color, 'Buttons and links, as # and six hex digits, such as #0a7f5c.')}`,
})}`,
  );
}

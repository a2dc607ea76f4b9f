import type { ActiveSession } from '../../../../services/dashboard-auth-service';
import { assetUrl } from '../assets';
import { CSRF_FIELD } from '../csrf';
import { html, SafeHtml } from '../html';

export type NavItem = 'overview' | 'keys' | 'endpoints' | 'tenants' | 'portal' | 'events' | 'cost-estimator';

const NAV: { id: NavItem; href: string; label: string }[] = [
  { id: 'overview', href: '/dashboard', label: 'Overview' },
  { id: 'keys', href: '/dashboard/keys', label: 'API keys' },
  { id: 'endpoints', href: '/dashboard/endpoints', label: 'Webhook endpoints' },
  { id: 'tenants', href: '/dashboard/tenants', label: 'Tenants' },
  { id: 'portal', href: '/dashboard/portal', label: 'Tenant portal' },
  { id: 'events', href: '/dashboard/events', label: 'Events' },
  { id: 'cost-estimator', href: '/dashboard/cost-estimator', label: 'Cost estimator' },
];

export interface PageOptions {
  title: string;
  /** Signed in: the header shows the account and a sign-out button, and the navigation. */
  session?: ActiveSession;
  active?: NavItem;
  notice?: string;
  /** Sign-in and sign-up: a narrow column. */
  narrow?: boolean;
}

/** What a page says about the last action: a notice after it succeeded, or why its form was refused. */
export interface Feedback {
  notice?: string;
  error?: string;
  details?: string[];
}

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
}

/** A button that posts to `action` (with the CSRF token) and sends nothing else. */
export function postButton(action: string, csrfToken: string, label: string, style?: string): SafeHtml {
  return html`<form method="post" action="${action}">${csrfField(csrfToken)}<button type="submit"${style && html` class="${style}"`}>${label}</button></form>`;
}

/** A confirmation page's form: its one dangerous button (after `fields`, if any), and Cancel back to `cancelHref`. */
export function confirmForm(action: string, csrfToken: string, submit: string, cancelHref: string, fields?: SafeHtml): SafeHtml {
  return html`<form method="post" action="${action}" class="actions">
  ${csrfField(csrfToken)}${fields}
  <button type="submit" class="danger">${submit}</button>
  <a class="button secondary" href="${cancelHref}">Cancel</a>
</form>`;
}

export function formCard(card: {
  id: string;
  heading: string;
  /** Under the heading (what the form does). */
  hint?: SafeHtml;
  /** Why the form was last refused: the page's view, which carries it. */
  feedback?: Pick<Feedback, 'error' | 'details'>;
  action: string;
  csrfToken: string;
  fields: SafeHtml;
  submit: string;
  /** The submit button's class (e.g. `secondary`); the primary style without. */
  submitClass?: string;
}): SafeHtml {
  return html`<section aria-labelledby="${card.id}" class="card">
  <h2 id="${card.id}">${card.heading}</h2>
  ${card.hint}
  ${errorBox(card.feedback?.error, card.feedback?.details)}
  <form class="stack" method="post" action="${card.action}">
    ${csrfField(card.csrfToken)}
    ${card.fields}
    <div class="actions"><button type="submit"${card.submitClass && html` class="${card.submitClass}"`}>${card.submit}</button></div>
  </form>
</section>`;
}

export function option(value: string, label: string, chosen: string | undefined): SafeHtml {
  return html`<option value="${value}"${value === chosen ? html` selected` : html``}>${label}</option>`;
}

/** A secret with its copy button (dashboard.js shows it only where the browser can copy) and the line it reports to. */
export function copyableSecret(id: string, secret: string, copyLabel: string): SafeHtml {
  return html`<div class="secret-box">
    <code id="${id}" data-testid="${id}">${secret}</code>
    <button type="button" class="secondary small" data-copy-target="${id}" data-copy-status="copy-status" hidden>${copyLabel}</button>
  </div>
  <p class="copy-status" id="copy-status" role="status" aria-live="polite"></p>`;
}

export function errorBox(message: string | undefined, details: readonly string[] = []): SafeHtml {
  if (!message) return html``;
  return html`<div class="error-box" role="alert"><p><strong>${message}</strong></p>${
    details.length > 0 && html`<ul>${details.map((d) => html`<li>${d}</li>`)}</ul>`
  }</div>`;
}

export function page(options: PageOptions, body: SafeHtml): SafeHtml {
  const { session } = options;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Developer Platform dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetUrl('dashboard.css')}">
<script src="${assetUrl('dashboard.js')}" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
  <div class="bar">
    <a class="brand" href="/dashboard">Developer Platform</a>
    ${
      session &&
      html`<span class="account">Signed in as <strong>${session.account.email}</strong></span>
    ${postButton('/dashboard/sign-out', session.csrfToken, 'Sign out', 'button small')}`
    }
  </div>
  ${
    session &&
    html`<nav class="main-nav" aria-label="Dashboard"><ul>${NAV.map(
      (item) => html`<li><a href="${item.href}"${item.id === options.active ? html` aria-current="page"` : html``}>${item.label}</a></li>`,
    )}</ul></nav>`
  }
</header>
<main id="main" tabindex="-1"${options.narrow ? html` class="narrow"` : html``}>
${options.notice && html`<p class="notice" role="status">${options.notice}</p>`}
${body}
</main>
<footer class="site-footer"><p>API reference: <a href="/docs">/docs</a> · OpenAPI: <a href="/openapi.json">/openapi.json</a></p></footer>
</body>
</html>`;
}

import type { Context } from 'koa';
import { DESTINATION_TYPES, KAFKA_SASL_MECHANISMS } from '../../../domain/webhooks/destination';
import { frameAncestors, imageSources, type PortalSettings } from '../../../domain/webhooks/portal-settings';
import { BROKER_FORMS, DESTINATION_TYPE_LABELS } from '../dashboard/destination-form';
import { html, type SafeHtml } from '../dashboard/html';
import { portalAssetUrl } from './assets';

/**
 * The page's headers: only the account's allowed origins may frame it, and its script may reach this origin only (the
 * public API, with the session's token). No inline script or style: branding is applied by the script through the CSSOM.
 */
function setHeaders(ctx: Context, settings: Pick<PortalSettings, 'allowed_origins' | 'logo_url'>): void {
  ctx.set(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      `img-src ${imageSources(settings)}`,
      "connect-src 'self'",
      "form-action 'none'",
      `frame-ancestors ${frameAncestors(settings)}`,
      "base-uri 'none'",
      "object-src 'none'",
    ].join('; '),
  );
  // X-Frame-Options cannot name several origins: sent only when no page may frame the portal (for browsers without CSP).
  if (settings.allowed_origins.length === 0) ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'no-store');
}

function send(ctx: Context, status: number, body: SafeHtml): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html>\n${body.toString()}`;
}

/**
 * The endpoint form's destination types and their fields, as the dashboard's form has them: the script builds its form
 * from this (read from the body's attribute, as data: the CSP allows no inline script), so each field is described once.
 */
const DESTINATION_FORMS = JSON.stringify({
  labels: DESTINATION_TYPE_LABELS,
  types: DESTINATION_TYPES.map((type) => ({ type, ...BROKER_FORMS[type] })),
  sasl_mechanisms: KAFKA_SASL_MECHANISMS,
});

/** The portal page: a shell that the script fills from the public API (assets/portal.js). */
export function sendPortalPage(ctx: Context, accountId: string, settings: PortalSettings): void {
  setHeaders(ctx, settings);
  send(
    ctx,
    200,
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Webhooks</title>
<link rel="stylesheet" href="${portalAssetUrl('portal.css')}">
<script src="${portalAssetUrl('portal.js')}" defer></script>
</head>
<body data-account="${accountId}" data-destination-forms="${DESTINATION_FORMS}">
<header class="brand">
<img id="brand-logo" alt="" hidden>
<span id="brand-name">Webhooks</span>
</header>
<nav id="nav" aria-label="Portal" hidden></nav>
<div id="notice" role="status"></div>
<main id="main"><p>Loading…</p></main>
<noscript><p>This page needs JavaScript.</p></noscript>
</body>
</html>`,
  );
}

/** A path under /portal that is no account's page: nothing may frame it. */
export function sendPortalNotFound(ctx: Context): void {
  setHeaders(ctx, { allowed_origins: [], logo_url: null });
  send(
    ctx,
    404,
    html`<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
<body><h1>Not found</h1><p>There is no portal at this address. Ask for a new link.</p></body></html>`,
  );
}

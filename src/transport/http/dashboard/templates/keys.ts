import { PRODUCT_CODES, PRODUCTS } from '../../../../domain/keys/products';
import { MAX_REVOKED_KEYS_KEPT } from '../../../../domain/keys/revoked-keys';
import { type KeyView, MAX_LABEL_LENGTH } from '../../../../services/account-service';
import type { ActiveSession } from '../../../../services/dashboard-auth-service';
import { html, SafeHtml } from '../html';
import { badge, time } from './format';
import { confirmForm, copyableSecret, type Feedback, formCard, option, page } from './layout';
import { listSection } from './list-section';

const maskedKey = (k: KeyView) => `${k.prefix}…${k.last_four}`;

export function keysPage(session: ActiveSession, view: Feedback & { keys: KeyView[]; form?: { product?: string; label?: string } }): SafeHtml {
  const chosen = view.form?.product ?? 'weh';
  return page(
    { title: 'API keys', session, active: 'keys', notice: view.notice },
    html`<h1>API keys</h1>
<p class="lead">Each key works for exactly one product. The full key is shown once, when you create it.</p>
${formCard({
  id: 'create-heading',
  heading: 'Create a key',
  feedback: view,
  action: '/dashboard/keys',
  csrfToken: session.csrfToken,
  fields: html`<div class="inline-fields">
      <div class="field">
        <label for="product">Product</label>
        <select id="product" name="product" required>
          ${PRODUCT_CODES.map((code) => option(code, `${PRODUCTS[code].name} (${code})`, chosen))}
        </select>
      </div>
      <div class="field">
        <label for="label">Label</label>
        <input id="label" name="label" type="text" required maxlength="${MAX_LABEL_LENGTH}" value="${view.form?.label ?? ''}" aria-describedby="label-hint">
        <p class="hint" id="label-hint">Where the key is used, e.g. “production server”.</p>
      </div>
    </div>`,
  submit: 'Create key',
})}
${listSection({
  heading: 'Your keys',
  columns: ['Label', 'Product', 'Key', 'Created', 'Status', html`<span class="visually-hidden">Actions</span>`],
  items: view.keys,
  row: (k) => html`<tr data-key-id="${k.id}">
      <td>${k.label}</td>
      <td>${k.product_name}</td>
      <td><code>${maskedKey(k)}</code></td>
      <td>${time(k.created_at)}</td>
      <td>${k.revoked_at ? html`${badge('revoked')}<br><span class="hint">${time(k.revoked_at)}</span>` : badge('active')}</td>
      <td>${k.revoked_at ? html`` : html`<a class="button small danger" href="/dashboard/keys/${k.id}/revoke">Revoke<span class="visually-hidden"> key ${k.label}</span></a>`}</td>
    </tr>`,
  empty: 'No keys yet.',
  below: html`<p class="muted">Rotating a key without downtime: create a new key for the same product, deploy it, check that traffic succeeds, then revoke the old key.</p>
<p class="muted">The ${String(MAX_REVOKED_KEYS_KEPT)} most recently revoked keys are kept and listed; older revoked keys are deleted.</p>`,
})}`,
  );
}

export function newKeyPage(session: ActiveSession, view: { key: string; productName: string; label: string }): SafeHtml {
  return page(
    { title: 'Your new API key', session, active: 'keys' },
    html`<h1>Your new API key</h1>
<div class="warning" role="alert"><p><strong>Copy this key now. You won't see it again:</strong> we store only a hash of it.</p></div>
<section class="card" aria-labelledby="key-heading">
  <h2 id="key-heading">${view.label} <span class="muted">· ${view.productName}</span></h2>
  ${copyableSecret('new-key', view.key, 'Copy key')}
  <p>Send it as <code>Authorization: Bearer &lt;key&gt;</code>. Keep it out of source control.</p>
</section>
<p><a class="button" href="/dashboard/keys">I have copied it: back to keys</a></p>`,
  );
}

export function revokeKeyPage(session: ActiveSession, key: KeyView): SafeHtml {
  return page(
    { title: 'Revoke key', session, active: 'keys' },
    html`<h1>Revoke key “${key.label}”?</h1>
<div class="card">
  <dl class="details">
    <dt>Key</dt><dd><code>${maskedKey(key)}</code></dd>
    <dt>Product</dt><dd>${key.product_name}</dd>
    <dt>Created</dt><dd>${time(key.created_at)}</dd>
  </dl>
</div>
<p>Requests made with this key will be refused with 401 from now on. This cannot be undone.</p>
${confirmForm(`/dashboard/keys/${key.id}/revoke`, session.csrfToken, 'Revoke key', '/dashboard/keys')}`,
  );
}

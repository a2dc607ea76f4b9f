import type { ActiveSession } from '../../../../services/dashboard-auth-service';
import { MAX_RETRY_NOW_PER_CALL } from '../../../../services/event-service';
import type { EndpointView } from '../../../../services/endpoint-service';
import { html, SafeHtml } from '../html';
import { badge, integer, NONE, period, time, truncate } from './format';
import { confirmForm, copyableSecret, type Feedback, formCard, option, page, postButton } from './layout';
import { type ListPage, listSection, pagination } from './list-section';
import { DEFAULT_GRACE_PERIOD_SECONDS, MAX_GRACE_PERIOD_SECONDS } from '../../../../domain/webhooks/secret-rotation';
import { MAX_DESCRIPTION_LENGTH } from '../../routes/webhooks/schemas';
import { destinationLabel, type Destination } from '../../../../domain/webhooks/destination';
import { brokerInputsOf, DEFAULT_BROKER_INPUTS, DESTINATION_TYPE_LABELS } from '../destination-form';
import { destinationFields, type DestinationFieldsForm, destinationSummary, type StoredCredentials } from './destination-fields';
import { MAX_TENANT_ID_LENGTH } from '../../../../domain/webhooks/tenant';
import { tenantEndpointsPath } from './tenants';
import { MAX_MAX_IN_FLIGHT, MAX_RATE_LIMIT_PER_S, MIN_MAX_IN_FLIGHT, MIN_RATE_LIMIT_PER_S } from '../../../../domain/webhooks/endpoint-limits';

const GRACE_CHOICES: [number, string][] = [
  [0, 'None: the current secret and every replaced one stop now'],
  [3600, '1 hour'],
  [DEFAULT_GRACE_PERIOD_SECONDS, '24 hours'],
  [3 * 86_400, '3 days'],
  [MAX_GRACE_PERIOD_SECONDS, '7 days'],
];

export interface EndpointForm extends DestinationFieldsForm {
  events?: string;
  description?: string;
}

/** The delivery settings form as typed: an empty limit is no limit. */
export interface DeliverySettingsForm {
  ordering: string;
  rate_limit_per_s: string;
  max_in_flight: string;
}

/** An HTTPS endpoint's url, or a broker endpoint's destination address (no credential in it). */
const addressOf = (e: EndpointView) => e.url ?? (e.destination ? destinationLabel(e.destination as unknown as Destination) : '');
const commaList = <T>(items: readonly T[], item: (x: T) => SafeHtml) => items.map((x, i) => html`${i > 0 ? ', ' : ''}${item(x)}`);
const patternList = (e: EndpointView) => commaList(e.events, (p) => html`<code>${p}</code>`);
const endpointStatus = (e: EndpointView) =>
  html`${e.disabled_reason === 'failing' ? html`${badge('disabled')} ${badge('failing')}` : badge(e.disabled ? 'disabled' : 'enabled')}${e.paused && html` ${badge('paused')}`}`;
/** FIFO: one delivery at a time in ingest order; the queue's head and length as GET shows them. */
const orderingText = (e: EndpointView) => {
  if (e.ordering !== 'fifo') return 'Unordered';
  const head = e.fifo?.head_event_id;
  return html`FIFO${e.fifo && html`: ${integer(e.fifo.length)} waiting their turn${head != null && html`, the head event <a href="/dashboard/events/${head}">#${head}</a>`}`}`;
};
/** The endpoint's own limits in words; `None` when it has neither. */
const limitsText = (e: EndpointView) => {
  const parts = [
    e.rate_limit_per_s !== null && `${integer(e.rate_limit_per_s)} ${e.rate_limit_per_s === 1 ? 'delivery' : 'deliveries'} started per second`,
    e.max_in_flight !== null && `${integer(e.max_in_flight)} ${e.max_in_flight === 1 ? 'request' : 'requests'} in flight at once`,
  ].filter((p): p is string => p !== false);
  return parts.length === 0 ? 'None' : `At most ${parts.join(' and ')}`;
};

/** The rotation grace period: which replaced secrets still sign `webhook-signature`, and until when. */
const secretsInGraceText = (e: EndpointView) => {
  const n = e.secrets_in_grace.length;
  if (n === 0) return html`One (no replaced secret in a grace period)`;
  const until = commaList(e.secrets_in_grace, (s) => html`until ${time(s.expires_at)}`);
  return html`The current one, and ${n} replaced ${n === 1 ? 'secret' : 'secrets'} in the rotation grace period, still signing <code>webhook-signature</code>: ${until}`;
};

function endpointFields(prefix: string, form: EndpointForm, stored?: StoredCredentials): SafeHtml {
  return html`${destinationFields(prefix, form, stored)}
  <div class="field">
    <label for="${prefix}events">Event types</label>
    <textarea id="${prefix}events" name="events" rows="3" aria-describedby="${prefix}events-hint">${form.events ?? '*'}</textarea>
    <p class="hint" id="${prefix}events-hint">One pattern per line: <code>*</code> (every event), <code>order.*</code> (a prefix) or an exact type such as <code>order.created</code>.</p>
  </div>
  <div class="field">
    <label for="${prefix}description">Description <span class="muted">(optional)</span></label>
    <input id="${prefix}description" name="description" type="text" maxlength="${MAX_DESCRIPTION_LENGTH}" value="${form.description ?? ''}">
  </div>`;
}

export interface EndpointsView extends Feedback, ListPage {
  endpoints: EndpointView[];
  form?: EndpointForm;
  /** The tenant the list is filtered to, as typed. */
  tenantFilter?: string;
}

/** The endpoint's tenant, linked to the list of that tenant's endpoints; none: the account's own. */
const tenantOf = (e: EndpointView) => (e.tenant_id ? html`<a href="${tenantEndpointsPath(e.tenant_id)}"><code>${e.tenant_id}</code></a>` : NONE);

function endpointsListUrl(tenantFilter: string | undefined, cursor?: string): string {
  const params = new URLSearchParams();
  if (tenantFilter) params.set('tenant_id', tenantFilter);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return `/dashboard/endpoints${query ? `?${query}` : ''}`;
}

export function endpointsPage(session: ActiveSession, view: EndpointsView): SafeHtml {
  return page(
    { title: 'Webhook endpoints', session, active: 'endpoints', notice: view.notice },
    html`<h1>Webhook endpoints</h1>
<p class="lead">Events you send are delivered to every enabled endpoint whose patterns match their type.</p>
${formCard({
  id: 'add-heading',
  heading: 'Add an endpoint',
  feedback: view,
  action: '/dashboard/endpoints',
  csrfToken: session.csrfToken,
  fields: endpointFields('new-', view.form ?? { broker: DEFAULT_BROKER_INPUTS }),
  submit: 'Add endpoint',
})}
${listSection({
  heading: 'Your endpoints',
  above: html`<form method="get" action="/dashboard/endpoints" class="inline-fields card" role="search" aria-label="Filter endpoints">
    <div class="field">
      <label for="filter-tenant">Tenant</label>
      <input id="filter-tenant" name="tenant_id" type="text" maxlength="${MAX_TENANT_ID_LENGTH}" value="${view.tenantFilter ?? ''}">
    </div>
    <div class="actions"><button type="submit" class="secondary">Filter</button>${view.tenantFilter && html` <a href="/dashboard/endpoints">Clear</a>`}</div>
  </form>`,
  columns: ['Destination', 'Event types', 'Description', 'Tenant', 'Status', 'Last 24 h', 'Created'],
  items: view.endpoints,
  row: (e) => html`<tr>
      <td><a href="/dashboard/endpoints/${e.id}"><code>${truncate(addressOf(e), 80)}</code></a> <span class="badge off" data-testid="endpoint-type">${DESTINATION_TYPE_LABELS[e.destination?.type ?? 'https']}</span></td>
      <td>${patternList(e)}</td>
      <td>${truncate(e.description, 80)}</td>
      <td data-testid="endpoint-tenant">${tenantOf(e)}</td>
      <td>${endpointStatus(e)}</td>
      <td>${integer(e.health.succeeded_24h)} succeeded, ${integer(e.health.failed_24h)} failed</td>
      <td>${time(e.created_at)}</td>
    </tr>`,
  empty: view.tenantFilter ? 'No endpoints of this tenant.' : view.isFirstPage ? 'No endpoints yet.' : 'No more endpoints.',
  below: pagination('Endpoint pages', 'endpoints', (cursor) => endpointsListUrl(view.tenantFilter, cursor), view),
})}`,
  );
}

export interface EndpointDetailView extends Feedback {
  endpoint: EndpointView;
  /** The auto-disable rule's period (ENDPOINT_AUTO_DISABLE_HOURS). */
  autoDisableAfterMs: number;
  /** The recovery form's time as typed (`YYYY-MM-DDTHH:MM`, UTC), and why it was refused. */
  recover?: Pick<Feedback, 'error' | 'details'> & { since: string };
  /** Where "retry all waiting now" goes on from, after a press that did not reach the last waiting delivery. */
  retryNowCursor?: string;
  /** Why the last press of "retry all waiting now" was refused. */
  retryNow?: Pick<Feedback, 'error' | 'details'>;
  form?: EndpointForm;
  /** The delivery settings as typed, and why they were refused. */
  settings?: Pick<Feedback, 'error' | 'details'> & { form: DeliverySettingsForm };
}

/** The form of the API's `ordering`, `rate_limit_per_s` and `max_in_flight`: what the endpoint has, or what was typed. */
function deliverySettingsFields(form: DeliverySettingsForm): SafeHtml {
  const limit = (name: Exclude<keyof DeliverySettingsForm, 'ordering'>, label: string, min: number, max: number, hint: string) => html`<div class="field">
      <label for="settings-${name}">${label} <span class="muted">(optional)</span></label>
      <input id="settings-${name}" name="${name}" type="number" inputmode="numeric" min="${min}" max="${max}" step="1" placeholder="No limit" value="${form[name]}" aria-describedby="settings-${name}-hint">
      <p class="hint" id="settings-${name}-hint">${hint}</p>
    </div>`;
  return html`<div class="field">
      <label for="settings-ordering">Ordering</label>
      <select id="settings-ordering" name="ordering" aria-describedby="settings-ordering-hint">
        ${option('unordered', 'Unordered: all at once', form.ordering)}
        ${option('fifo', 'FIFO: one at a time, in order', form.ordering)}
      </select>
      <p class="hint" id="settings-ordering-hint">With FIFO, deliveries are made in the order their events were accepted: the next starts only once the one before it has succeeded, failed after its last attempt, or been cancelled, so a failing delivery holds the queue while its retries run. A change applies to events accepted from then on.</p>
    </div>
    <div class="inline-fields">
    ${limit('rate_limit_per_s', 'Deliveries started per second', MIN_RATE_LIMIT_PER_S, MAX_RATE_LIMIT_PER_S, `A whole number from ${MIN_RATE_LIMIT_PER_S} to ${integer(MAX_RATE_LIMIT_PER_S)}, across all workers.`)}
    ${limit('max_in_flight', 'Requests in flight at once', MIN_MAX_IN_FLIGHT, MAX_MAX_IN_FLIGHT, `A whole number from ${MIN_MAX_IN_FLIGHT} to ${MAX_MAX_IN_FLIGHT}, across all workers.`)}
    </div>
    <p class="hint">Over a limit, a delivery waits its turn: waiting is not an attempt and never fails a delivery. Leave a limit empty for none.</p>`;
}

/** The edit form as the endpoint is: its url, or its destination's type and config (never a credential). */
const editFormOf = (e: EndpointView): EndpointForm => ({
  destination_type: e.destination?.type ?? 'https',
  url: e.url ?? '',
  broker: e.destination ? brokerInputsOf(e.destination.type, e.destination.config) : DEFAULT_BROKER_INPUTS,
  events: e.events.join('\n'),
  description: e.description,
});

const settingsOf = (e: EndpointView): DeliverySettingsForm => ({
  ordering: e.ordering,
  rate_limit_per_s: e.rate_limit_per_s === null ? '' : String(e.rate_limit_per_s),
  max_in_flight: e.max_in_flight === null ? '' : String(e.max_in_flight),
});

export function endpointDetailPage(session: ActiveSession, view: EndpointDetailView): SafeHtml {
  const e = view.endpoint;
  const base = `/dashboard/endpoints/${e.id}`;
  return page(
    { title: 'Endpoint', session, active: 'endpoints', notice: view.notice },
    html`<p><a href="/dashboard/endpoints">← All endpoints</a></p>
<h1>Endpoint <code>${e.id}</code></h1>
${
  e.disabled_reason === 'failing' &&
  html`<div class="error-box" role="alert" data-testid="endpoint-failing">
  <p><strong>The platform disabled this endpoint because its deliveries kept failing.</strong> Every delivery to it that ended in
  ${period(view.autoDisableAfterMs)} failed (the first of them ended ${time(e.health.failing_since)}), so it receives nothing now and its pending retries were cancelled.</p>
  <p>Fix the receiver, then enable the endpoint below: that clears this mark, and it gets ${period(view.autoDisableAfterMs)} again before it can be disabled for failures.</p>
</div>`
}
<section class="card" aria-labelledby="summary-heading">
  <h2 id="summary-heading" class="visually-hidden">Summary</h2>
  <dl class="details">
    ${destinationSummary(e, addressOf(e))}
    <dt>Event types</dt><dd>${patternList(e)}</dd>
    <dt>Description</dt><dd>${e.description || NONE}</dd>
    <dt>Tenant</dt><dd data-testid="endpoint-tenant">${tenantOf(e)}</dd>
    <dt>Status</dt><dd data-testid="endpoint-status">${endpointStatus(e)}</dd>
    <dt>Ordering</dt><dd data-testid="endpoint-ordering">${orderingText(e)}</dd>
    <dt>Limits</dt><dd data-testid="endpoint-limits">${limitsText(e)}</dd>
    <dt>Created</dt><dd>${time(e.created_at)}</dd>
    <dt>Updated</dt><dd>${time(e.updated_at)}</dd>
    <dt>Signing secrets</dt><dd data-testid="secrets-in-grace">${secretsInGraceText(e)}</dd>
  </dl>
  <div class="actions spaced">
    <a class="button secondary" href="${base}/secret">Reveal signing secret</a>
    ${postButton(`${base}/${e.disabled ? 'enable' : 'disable'}`, session.csrfToken, e.disabled ? 'Enable endpoint' : 'Disable endpoint', 'secondary')}
    ${postButton(`${base}/${e.paused ? 'resume' : 'pause'}`, session.csrfToken, e.paused ? 'Resume deliveries' : 'Pause deliveries', 'secondary')}
    <a class="button danger" href="${base}/delete">Delete endpoint</a>
  </div>
</section>
<section class="card" aria-labelledby="health-heading">
  <h2 id="health-heading">Health</h2>
  <dl class="details" data-testid="endpoint-health">
    <dt>Succeeded (last 24 h)</dt><dd data-testid="health-succeeded">${integer(e.health.succeeded_24h)}</dd>
    <dt>Failed (last 24 h)</dt><dd data-testid="health-failed">${integer(e.health.failed_24h)}</dd>
    <dt>Last success</dt><dd>${time(e.health.last_success_at)}</dd>
    <dt>Last failure</dt><dd>${time(e.health.last_failure_at)}</dd>
    <dt>Consecutive failed deliveries</dt><dd data-testid="health-consecutive">${integer(e.health.consecutive_failures)}</dd>
  </dl>
  <p class="hint">A delivery counts when it ends: succeeded, or failed after its 8th attempt. An endpoint whose deliveries all fail for
  ${period(view.autoDisableAfterMs)} is disabled automatically; enabling it again gives it a new ${period(view.autoDisableAfterMs)}.</p>
</section>
${formCard({
  id: 'retry-now-heading',
  heading: 'Deliveries waiting for a retry',
  feedback: view.retryNow,
  hint: html`<p class="hint">Every delivery to this endpoint that waits on its retry schedule makes its next attempt now (up to ${MAX_RETRY_NOW_PER_CALL} at a press); if it fails, its schedule goes on from there.
  Deliveries that wait for a paused endpoint are woken by resuming it.</p>`,
  action: `${base}/retry-now`,
  csrfToken: session.csrfToken,
  fields: view.retryNowCursor ? html`<input type="hidden" name="cursor" value="${view.retryNowCursor}">` : html``,
  submit: view.retryNowCursor ? 'Retry the next waiting deliveries now' : 'Retry all waiting now',
  submitClass: 'secondary',
})}
${formCard({
  id: 'recover-heading',
  heading: 'Recover failed deliveries',
  feedback: view.recover,
  action: `${base}/recover`,
  csrfToken: session.csrfToken,
  fields: html`<div class="field">
      <label for="recover-since">Since (UTC)</label>
      <input id="recover-since" name="since" type="datetime-local" required value="${view.recover?.since ?? ''}" aria-describedby="recover-since-hint">
      <p class="hint" id="recover-since-hint">Every delivery to this endpoint that failed or was cancelled since then (at most 7 days back, at most 1,000 deliveries) starts a new round.</p>
    </div>`,
  submit: 'Recover deliveries',
  submitClass: 'secondary',
})}
${formCard({
  id: 'delivery-settings-heading',
  heading: 'Delivery order and limits',
  feedback: view.settings,
  action: `${base}/delivery-settings`,
  csrfToken: session.csrfToken,
  fields: deliverySettingsFields(view.settings?.form ?? settingsOf(e)),
  submit: 'Save delivery settings',
  submitClass: 'secondary',
})}
${formCard({
  id: 'edit-heading',
  heading: 'Edit',
  feedback: view,
  action: base,
  csrfToken: session.csrfToken,
  fields: endpointFields('edit-', view.form ?? editFormOf(e), e.destination ? { type: e.destination.type, set: e.destination.credentials_set } : undefined),
  submit: 'Save changes',
})}`,
  );
}

export function endpointSecretPage(session: ActiveSession, endpoint: EndpointView, secret: string, notice?: string): SafeHtml {
  const base = `/dashboard/endpoints/${endpoint.id}`;
  return page(
    { title: 'Signing secret', session, active: 'endpoints', notice },
    html`<p><a href="${base}">← Back to the endpoint</a></p>
<h1>Signing secret</h1>
<p class="lead">For <code>${addressOf(endpoint)}</code></p>
<section class="card" aria-labelledby="secret-heading">
  <h2 id="secret-heading" class="visually-hidden">Secret</h2>
  ${copyableSecret('signing-secret', secret, 'Copy secret')}
  <p>Each delivery carries <code>X-Webhook-Signature: sha256=&lt;hex&gt;</code>: the HMAC-SHA256 of the raw body keyed with this secret. Compare it in constant time.</p>
  <p>It also carries the Standard Webhooks headers <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code>, which any Standard Webhooks library verifies with this secret and which protect against replays.</p>
  <p>Signing secrets: ${secretsInGraceText(endpoint)}.</p>
</section>
<p><a class="button danger" href="${base}/secret/rotate">Rotate secret</a></p>`,
  );
}

export function rotateSecretPage(session: ActiveSession, endpoint: EndpointView): SafeHtml {
  const base = `/dashboard/endpoints/${endpoint.id}`;
  return page(
    { title: 'Rotate secret', session, active: 'endpoints' },
    html`<h1>Rotate the signing secret?</h1>
<p>Endpoint <code>${addressOf(endpoint)}</code>. Every attempt from now on is signed with a new secret. During the grace period the current secret keeps signing
<code>webhook-signature</code> beside the new one, so a receiver that verifies that header keeps working until it is updated; <code>X-Webhook-Signature</code> uses the new secret at once.</p>
${confirmForm(`${base}/secret/rotate`, session.csrfToken, 'Rotate secret', `${base}/secret`, html`
  <div class="field">
    <label for="grace-period">Grace period</label>
    <select id="grace-period" name="grace_period_seconds">
      ${GRACE_CHOICES.map(([seconds, label]) => option(String(seconds), label, String(DEFAULT_GRACE_PERIOD_SECONDS)))}
    </select>
  </div>`)}`,
  );
}

export function deleteEndpointPage(session: ActiveSession, endpoint: EndpointView): SafeHtml {
  const base = `/dashboard/endpoints/${endpoint.id}`;
  return page(
    { title: 'Delete endpoint', session, active: 'endpoints' },
    html`<h1>Delete this endpoint?</h1>
<p><code>${addressOf(endpoint)}</code> will receive nothing more; its pending retries are cancelled. Past delivery history stays visible on each event. This cannot be undone.</p>
${confirmForm(`${base}/delete`, session.csrfToken, 'Delete endpoint', base)}`,
  );
}

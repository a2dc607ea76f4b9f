import { EVENT_STATUSES, isFinishedDeliveryStatus, isManuallyRetryable } from '../../../../domain/webhooks/delivery-status';
import { EVENT_TYPE_MAX_LENGTH } from '../../../../domain/webhooks/event-pattern';
import { stringifyExact } from '../../../../domain/webhooks/exact-json';
import type { ActiveSession } from '../../../../services/dashboard-auth-service';
import type { DeliveryView, EventView } from '../../../../services/event-service';
import { html, SafeHtml } from '../html';
import { badge, integer, NONE, time, truncate } from './format';
import { errorBox, type Feedback, formCard, option, page, postButton } from './layout';
import { columnHeading, type ListPage, listSection, pagination } from './list-section';

export interface EventFilter {
  type?: string;
  status?: string;
}

export interface SendEventForm {
  type: string;
  data: string;
}

export interface EventsView extends Feedback, ListPage {
  events: EventView[];
  filter: EventFilter;
  send?: SendEventForm;
}

function listUrl(filter: EventFilter, cursor?: string): string {
  const params = new URLSearchParams();
  if (filter.type) params.set('type', filter.type);
  if (filter.status) params.set('status', filter.status);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return `/dashboard/events${query ? `?${query}` : ''}`;
}

export function eventsPage(session: ActiveSession, view: EventsView): SafeHtml {
  const send = view.send ?? { type: 'test.ping', data: '{\n  "message": "Hello from the dashboard"\n}' };
  const filtered = Boolean(view.filter.type || view.filter.status);
  return page(
    { title: 'Events', session, active: 'events', notice: view.notice },
    html`<h1>Events</h1>
${formCard({
  id: 'send-heading',
  heading: 'Send a test event',
  hint: html`<p class="hint">Delivered like any event sent with the API to every enabled endpoint whose patterns match the type.</p>`,
  feedback: view,
  action: '/dashboard/events',
  csrfToken: session.csrfToken,
  fields: html`<div class="field">
      <label for="event-type">Event type</label>
      <input id="event-type" name="type" type="text" required maxlength="${EVENT_TYPE_MAX_LENGTH}" value="${send.type}" aria-describedby="event-type-hint">
      <p class="hint" id="event-type-hint">Letters, digits and <code>_ . : -</code>, e.g. <code>order.created</code>.</p>
    </div>
    <div class="field">
      <label for="event-data">Data (a JSON object)</label>
      <textarea id="event-data" name="data" rows="5" required>${send.data}</textarea>
    </div>`,
  submit: 'Send test event',
})}
${listSection({
  heading: 'Recent events',
  above: html`<form method="get" action="/dashboard/events" class="inline-fields card" role="search" aria-label="Filter events">
    <div class="field">
      <label for="filter-type">Type</label>
      <input id="filter-type" name="type" type="text" maxlength="${EVENT_TYPE_MAX_LENGTH}" value="${view.filter.type ?? ''}">
    </div>
    <div class="field">
      <label for="filter-status">Status</label>
      <select id="filter-status" name="status">
        <option value="">Any status</option>
        ${EVENT_STATUSES.map((s) => option(s, s, view.filter.status))}
      </select>
    </div>
    <div class="actions"><button type="submit" class="secondary">Filter</button>${filtered && html` <a href="/dashboard/events">Clear</a>`}</div>
  </form>`,
  columns: ['Event', 'Type', 'Status', { numeric: 'Destinations' }, 'Created'],
  items: view.events,
  row: (e) => html`<tr>
      <td><a href="/dashboard/events/${e.id}">#${e.id}</a></td>
      <td><code>${e.type}</code></td>
      <td>${badge(e.status)}</td>
      <td class="num">${integer(e.destinations)}</td>
      <td>${time(e.created_at)}</td>
    </tr>`,
  empty: filtered ? 'No events match this filter.' : view.isFirstPage ? 'No events yet.' : 'No older events.',
  below: pagination('Event pages', 'events', (cursor) => listUrl(view.filter, cursor), view),
})}`,
  );
}

export type EventDetail = EventView & { deliveries: DeliveryView[] };

/** Retry now while a delivery waits for its next attempt (not for a paused endpoint's resume), cancel until it has ended, a new round once it has. */
function deliveryActions(session: ActiveSession, event: EventDetail, d: DeliveryView): SafeHtml | false {
  const button = (action: string, label: string, style?: string) =>
    postButton(`/dashboard/events/${event.id}/deliveries/${d.endpoint_id}/${action}`, session.csrfToken, label, style);
  if (isManuallyRetryable(d.status)) return html`<div class="actions spaced">${button('retry', 'Retry delivery')}</div>`;
  if (isFinishedDeliveryStatus(d.status)) return false;
  return html`<div class="actions spaced">
    ${d.status === 'retrying' && !d.paused && button('retry-now', 'Retry now')}
    ${button('cancel', 'Cancel delivery', 'danger')}
  </div>`;
}

function deliverySection(session: ActiveSession, event: EventDetail, d: DeliveryView, index: number): SafeHtml {
  const headingId = `delivery-${index}`;
  return html`<section class="card" aria-labelledby="${headingId}" data-testid="delivery">
  <h3 id="${headingId}">Delivery to <code>${d.url || d.endpoint_id}</code></h3>
  <dl class="details">
    <dt>Status</dt><dd data-testid="delivery-status">${badge(d.status)}${d.paused && html` ${badge('paused')}`}</dd>
    <dt>Endpoint</dt><dd><a href="/dashboard/endpoints/${d.endpoint_id}"><code>${d.endpoint_id}</code></a></dd>
    <dt>Round</dt><dd>${d.round}</dd>
    <dt>Attempts</dt><dd>${d.attempt_count}</dd>
    <dt>Next attempt</dt><dd>${d.next_attempt_at ? time(d.next_attempt_at) : html`<span class="muted">none scheduled</span>`}</dd>
  </dl>
  ${deliveryActions(session, event, d)}
  ${
    d.attempts.length === 0
      ? html`<p class="muted">No attempt has finished yet.</p>`
      : html`<div class="table-wrap spaced" role="region" aria-labelledby="${headingId}" tabindex="0">
    <table class="stack-on-phone">
      <caption>Attempts</caption>
      <thead><tr>${['Round', 'Attempt', 'Started', { numeric: 'Duration' }, { numeric: 'Status code' }, 'Error', 'Response body'].map(columnHeading)}</tr></thead>
      <tbody>
        ${d.attempts.map(
          (a) => html`<tr data-testid="attempt">
          <td data-label="Round">${a.round}</td>
          <td data-label="Attempt">${a.attempt}</td>
          <td data-label="Started">${time(a.started_at)}</td>
          <td class="num" data-label="Duration">${integer(a.duration_ms)} ms</td>
          <td class="num" data-label="Status code" data-testid="attempt-status-code">${a.status_code ?? NONE}</td>
          <td data-label="Error">${a.error ?? NONE}</td>
          <td data-label="Response body">${a.response_body ? html`<pre>${truncate(a.response_body, 500)}</pre>` : NONE}</td>
        </tr>`,
        )}
      </tbody>
    </table>
  </div>`
  }
</section>`;
}

export function eventDetailPage(session: ActiveSession, event: EventDetail, options: Pick<Feedback, 'notice' | 'error'> = {}): SafeHtml {
  return page(
    { title: `Event #${event.id}`, session, active: 'events', notice: options.notice },
    html`<p><a href="/dashboard/events">← All events</a></p>
<h1>Event #${event.id}</h1>
${errorBox(options.error)}
<section class="card" aria-labelledby="summary-heading">
  <h2 id="summary-heading" class="visually-hidden">Summary</h2>
  <dl class="details">
    <dt>Type</dt><dd><code>${event.type}</code></dd>
    <dt>Status</dt><dd data-testid="event-status">${badge(event.status)}</dd>
    <dt>Created</dt><dd>${time(event.created_at)}</dd>
    <dt>Timestamp</dt><dd><code>${event.timestamp}</code></dd>
    <dt>Idempotency key</dt><dd>${event.idempotency_key ? html`<code>${event.idempotency_key}</code>` : html`<span class="muted">none</span>`}</dd>
  </dl>
  <h3>Data</h3>
  <pre>${stringifyExact(event.data, 2)}</pre>
  <p class="actions spaced"><a class="button secondary" href="/dashboard/events/${event.id}">Refresh</a></p>
</section>
<h2>Deliveries</h2>
${
  event.deliveries.length === 0
    ? html`<p class="muted">No enabled endpoint matched this event type when it was sent, so nothing was delivered.</p>`
    : event.deliveries.map((d, i) => deliverySection(session, event, d, i))
}`,
  );
}

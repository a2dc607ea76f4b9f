import type { Context } from 'koa';
import { DomainError, ValidationError } from '../../../../domain/errors';
import { isEventStatus, type EventStatus } from '../../../../domain/webhooks/delivery-status';
import { parseExact } from '../../../../domain/webhooks/exact-json';
import { EVENT_TYPE_REGEX } from '../../../../domain/webhooks/event-pattern';
import type { ActiveSession } from '../../../../services/dashboard-auth-service';
import { assertPositiveEventId } from '../../../../services/event-service';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../json-nesting';
import type { DashboardDeps } from '../deps';
import { meteredAction } from '../metered-action';
import { describeError, formField, isActionRefusal, isFormError, queryField, queryNotice, seeOther, sendErrorPage, sendHtml } from '../render';
import type { SignedInRouter } from '../session';
import { EventFilter, eventDetailPage, eventsPage, EventsView, SendEventForm } from '../templates/events';
import type { NoticeKey } from '../templates/notices';

const PAGE_SIZE = 25;

/** The test event's data as typed: it must be a JSON object, like the API's `data`. */
export function parseEventData(text: string): Record<string, unknown> {
  if (exceedsJsonDepth(text)) {
    throw new ValidationError(`Data nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep.`, [{ path: 'data', message: 'Too deeply nested' }]);
  }
  let data: unknown;
  try {
    data = parseExact(text);
  } catch {
    throw new ValidationError('Data is not valid JSON.', [{ path: 'data', message: 'Invalid JSON' }]);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ValidationError('Data must be a JSON object, e.g. {"order_id": 42}.', [{ path: 'data', message: 'Expected an object' }]);
  }
  return data as Record<string, unknown>;
}

export function eventRoutes(pages: SignedInRouter, deps: DashboardDeps): void {
  const listPage = async (ctx: Context, session: ActiveSession, extra: Pick<EventsView, 'send' | 'error' | 'details'>, err?: DomainError) => {
    const filter: EventFilter = { type: queryField(ctx, 'type').trim() || undefined, status: queryField(ctx, 'status') || undefined };
    const cursor = queryField(ctx, 'cursor') || undefined;
    // A malformed filter is reported on the page (not as an error page), with no results.
    let filterError: string | undefined;
    if (filter.type && !EVENT_TYPE_REGEX.test(filter.type)) filterError = 'The type filter must be an event type such as order.created.';
    if (filter.status && !isEventStatus(filter.status)) filterError = 'Unknown status filter.';
    const page = filterError
      ? { data: [], next_cursor: null }
      : await deps.events.list(session.account._id, {
          limit: PAGE_SIZE,
          cursor,
          type: filter.type,
          status: filter.status as EventStatus | undefined,
        });
    sendErrorPage(
      ctx,
      err ?? (filterError ? new DomainError('invalid_request', filterError) : undefined),
      eventsPage(session, {
        events: page.data,
        filter,
        nextCursor: page.next_cursor,
        isFirstPage: !cursor,
        notice: queryNotice(ctx),
        ...extra,
        error: extra.error ?? filterError,
      }),
    );
  };

  pages.get('/events', (ctx, session) => listPage(ctx, session, {}));

  /** "Send test event": the API's ingest, metered and admitted like its call (a refusal is a 503, given back like any 5xx). */
  pages.post('/events', async (ctx, session) => {
    const send: SendEventForm = { type: formField(ctx, 'type').trim(), data: formField(ctx, 'data') };
    try {
      const result = await meteredAction(ctx, session, deps, async () => {
        if (!EVENT_TYPE_REGEX.test(send.type)) {
          throw new ValidationError('Event type must be 1 to 256 characters of letters, digits and _ . : -', [{ path: 'type', message: 'Invalid event type' }]);
        }
        const data = parseEventData(send.data);
        const ticket = deps.admission.admit(session.account._id);
        try {
          return await deps.events.ingest(ticket, { type: send.type, data });
        } finally {
          ticket.release();
        }
      });
      seeOther(ctx, `/dashboard/events/${String(result.body.id)}?notice=event-sent`);
    } catch (err) {
      if (!isFormError(err)) throw err;
      await listPage(ctx, session, { send, ...describeError(err) }, err);
    }
  });

  pages.get('/events/:id', async (ctx, session) => {
    const event = await deps.events.get(session.account._id, eventId(ctx.params.id));
    sendHtml(ctx, 200, eventDetailPage(session, event, { notice: queryNotice(ctx) }));
  });

  /** What each button beside a delivery does: the API's own operation, and the notice it ends with. */
  const deliveryActions: Record<string, { notice: NoticeKey; run: (accountId: string, eventId: number, endpointId: string) => Promise<unknown> }> = {
    retry: { notice: 'retry-started', run: (...args) => deps.events.retry(...args) },
    'retry-now': { notice: 'retry-now-started', run: (...args) => deps.events.retryNow(...args) },
    cancel: { notice: 'delivery-cancelling', run: (...args) => deps.events.cancel(...args) },
  };

  for (const [action, { notice, run }] of Object.entries(deliveryActions)) {
    pages.post(`/events/:id/deliveries/:endpointId/${action}`, async (ctx, session) => {
      const id = eventId(ctx.params.id);
      try {
        await meteredAction(ctx, session, deps, () => run(session.account._id, id, ctx.params.endpointId));
        seeOther(ctx, `/dashboard/events/${id}?notice=${notice}`);
      } catch (err) {
        if (!isActionRefusal(err)) throw err;
        const event = await deps.events.get(session.account._id, id);
        sendErrorPage(ctx, err, eventDetailPage(session, event, { error: err.message }));
      }
    });
  }
}

/** A malformed id is simply a page that does not exist. */
function eventId(raw: string): number {
  try {
    return assertPositiveEventId(raw);
  } catch {
    throw new DomainError('not_found', 'No such event in this account.');
  }
}

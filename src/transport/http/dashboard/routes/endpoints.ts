import type { Context } from 'koa';
import { DomainError, ValidationError } from '../../../../domain/errors';
import { isTenantId, TENANT_ID_RULE } from '../../../../domain/webhooks/tenant';
import type { ActiveSession } from '../../../../services/dashboard-auth-service';
import { EndpointPatchBody, MAX_DESCRIPTION_LENGTH, RotateSecretBody } from '../../routes/webhooks/schemas';
import { parseInput } from '../../route';
import type { DashboardDeps } from '../deps';
import { destinationFromForm, isDestinationChoice, readBrokerInputs } from '../destination-form';
import { meteredAction } from '../metered-action';
import { describeError, formField, isActionRefusal, isFormError, queryField, queryNotice, seeOther, sendErrorPage, sendHtml } from '../render';
import type { SignedInRouter } from '../session';
import { deleteEndpointPage, DeliverySettingsForm, EndpointDetailView, EndpointForm, endpointDetailPage, EndpointsView, endpointSecretPage, endpointsPage, rotateSecretPage } from '../templates/endpoints';
import { formNumber } from '../form-number';

const PAGE_SIZE = 20;

/** Patterns typed one per line (commas tolerated); none at all means the API's default `*`. */
export function parsePatterns(text: string): string[] | undefined {
  const patterns = text
    .split(/[\n\r,]+/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  return patterns.length > 0 ? patterns : undefined;
}

function readForm(ctx: Context): Required<EndpointForm> {
  return {
    destination_type: formField(ctx, 'destination_type') || 'https',
    url: formField(ctx, 'url').trim(),
    broker: readBrokerInputs(ctx),
    events: formField(ctx, 'events'),
    description: formField(ctx, 'description'),
  };
}

/** The form as the service's input: the url or the broker destination, its description checked as the API's schema checks it. */
function endpointInput(ctx: Context, form: Required<EndpointForm>) {
  if (form.description.length > MAX_DESCRIPTION_LENGTH) {
    throw new ValidationError(`Description must be at most ${MAX_DESCRIPTION_LENGTH} characters.`, [
      { path: 'description', message: 'Too long' },
    ]);
  }
  const type = form.destination_type;
  if (!isDestinationChoice(type)) throw new ValidationError('Choose a destination type.', [{ path: 'destination_type', message: 'Unknown type' }]);
  const target = type === 'https' ? { url: form.url } : { destination: destinationFromForm(ctx, type, form.broker) };
  return { ...target, events: parsePatterns(form.events), description: form.description };
}

/** The rotate form's grace period, read as every number field of the dashboard and checked by the API's own schema; empty → the default. */
function readGracePeriod(ctx: Context): number | undefined {
  const seconds = formNumber(formField(ctx, 'grace_period_seconds'));
  const parsed = RotateSecretBody.safeParse(seconds === undefined ? undefined : { grace_period_seconds: seconds });
  if (!parsed.success) throw new ValidationError('Grace period must be a whole number of seconds from 0 to 7 days.', [{ path: 'grace_period_seconds', message: 'Invalid' }]);
  return parsed.data?.grace_period_seconds;
}

/** The API's PATCH fields for an endpoint's ordering and limits: the same schema checks the form. */
const DeliverySettings = EndpointPatchBody.pick({ ordering: true, rate_limit_per_s: true, max_in_flight: true });

function readDeliverySettings(ctx: Context): DeliverySettingsForm {
  return { ordering: formField(ctx, 'ordering'), rate_limit_per_s: formField(ctx, 'rate_limit_per_s').trim(), max_in_flight: formField(ctx, 'max_in_flight').trim() };
}

/**
 * The form as the PATCH body it stands for: an empty limit is null (no limit), a decimal number (`1e2` too, as a
 * number input sends it) that number, anything else NaN; the schema refuses what it refuses on the API, in the same words.
 */
function deliverySettingsPatch(form: DeliverySettingsForm) {
  const limit = (raw: string) => formNumber(raw) ?? null;
  const body = { ordering: form.ordering, rate_limit_per_s: limit(form.rate_limit_per_s), max_in_flight: limit(form.max_in_flight) };
  return parseInput(DeliverySettings, body, 'body');
}

/** A missing endpoint is the error page's 404, not a form error. */
const isEndpointFormError = (err: unknown): err is DomainError => isFormError(err) && err.code !== 'not_found';

export function endpointRoutes(pages: SignedInRouter, deps: DashboardDeps): void {
  const base = (id: string) => `/dashboard/endpoints/${encodeURIComponent(id)}`;
  /** The list and the endpoint's pages; after a refused form, with that error's status and headers. */
  const listPage = async (ctx: Context, session: ActiveSession, extra: Pick<EndpointsView, 'form' | 'error' | 'details'>, err?: DomainError) => {
    const cursor = queryField(ctx, 'cursor') || undefined;
    const tenantFilter = queryField(ctx, 'tenant_id').trim() || undefined;
    // A malformed filter is reported on the page (not as an error page), with no results, as on the events page.
    const filterError = tenantFilter !== undefined && !isTenantId(tenantFilter) ? `The tenant filter ${TENANT_ID_RULE}.` : undefined;
    const page = filterError ? { data: [], next_cursor: null } : await deps.endpoints.list(session.account._id, PAGE_SIZE, cursor, tenantFilter);
    sendErrorPage(
      ctx,
      err ?? (filterError ? new DomainError('invalid_request', filterError) : undefined),
      endpointsPage(session, {
        endpoints: page.data,
        nextCursor: page.next_cursor,
        isFirstPage: !cursor,
        notice: queryNotice(ctx),
        tenantFilter,
        ...extra,
        error: extra.error ?? filterError,
      }),
    );
  };

  const detailPage = async (ctx: Context, session: ActiveSession, view: Omit<EndpointDetailView, 'endpoint' | 'autoDisableAfterMs'>, err?: DomainError) => {
    const endpoint = await deps.endpoints.get(session.account._id, ctx.params.id);
    sendErrorPage(ctx, err, endpointDetailPage(session, { endpoint, autoDisableAfterMs: deps.endpoints.autoDisableAfterMs, ...view }));
  };

  pages.get('/endpoints', (ctx, session) => listPage(ctx, session, {}));

  pages.post('/endpoints', async (ctx, session) => {
    const form = readForm(ctx);
    try {
      const created = await meteredAction(ctx, session, deps, () => deps.endpoints.create(session.account._id, endpointInput(ctx, form)));
      seeOther(ctx, `${base(created.id)}?notice=endpoint-created`);
    } catch (err) {
      if (!isEndpointFormError(err)) throw err;
      await listPage(ctx, session, { form, ...describeError(err) }, err);
    }
  });

  pages.get('/endpoints/:id', (ctx, session) =>
    detailPage(ctx, session, { notice: queryNotice(ctx), retryNowCursor: queryField(ctx, 'retry_cursor') || undefined }),
  );

  pages.post('/endpoints/:id', async (ctx, session) => {
    const form = readForm(ctx);
    try {
      await meteredAction(ctx, session, deps, () => {
        const input = endpointInput(ctx, form);
        return deps.endpoints.update(session.account._id, ctx.params.id, { ...input, events: input.events ?? ['*'] });
      });
      seeOther(ctx, `${base(ctx.params.id)}?notice=endpoint-updated`);
    } catch (err) {
      if (!isEndpointFormError(err)) throw err;
      await detailPage(ctx, session, { form, ...describeError(err) }, err);
    }
  });

  pages.post('/endpoints/:id/delivery-settings', async (ctx, session) => {
    const form = readDeliverySettings(ctx);
    try {
      await meteredAction(ctx, session, deps, () => deps.endpoints.update(session.account._id, ctx.params.id, deliverySettingsPatch(form)));
      seeOther(ctx, `${base(ctx.params.id)}?notice=delivery-settings-saved`);
    } catch (err) {
      if (!isEndpointFormError(err)) throw err;
      await detailPage(ctx, session, { settings: { form, ...describeError(err) } }, err);
    }
  });

  /** The endpoint's switches: each the API's own operation, ending with the notice `endpoint-<action>d`. */
  const switches: Record<string, (accountId: string, id: string) => Promise<unknown>> = {
    disable: (accountId, id) => deps.endpoints.update(accountId, id, { disabled: true }),
    enable: (accountId, id) => deps.endpoints.update(accountId, id, { disabled: false }),
    pause: (accountId, id) => deps.endpoints.pause(accountId, id),
    resume: (accountId, id) => deps.endpoints.resume(accountId, id),
  };
  for (const [action, run] of Object.entries(switches)) {
    pages.post(`/endpoints/:id/${action}`, async (ctx, session) => {
      await meteredAction(ctx, session, deps, () => run(session.account._id, ctx.params.id));
      seeOther(ctx, `${base(ctx.params.id)}?notice=endpoint-${action}d`);
    });
  }

  /** The API's bulk retry now, one call (at most MAX_RETRY_NOW_PER_CALL deliveries) a press; the next press goes on from its cursor. */
  pages.post('/endpoints/:id/retry-now', async (ctx, session) => {
    const cursor = formField(ctx, 'cursor') || undefined;
    try {
      const { woken, next_cursor } = await meteredAction(ctx, session, deps, () => deps.events.retryNowForEndpoint(session.account._id, ctx.params.id, cursor));
      if (next_cursor) seeOther(ctx, `${base(ctx.params.id)}?notice=retry-now-more&retry_cursor=${encodeURIComponent(next_cursor)}`);
      else seeOther(ctx, `${base(ctx.params.id)}?notice=${woken > 0 ? 'retry-now-woken' : 'retry-now-none'}`);
    } catch (err) {
      if (!isActionRefusal(err)) throw err;
      await detailPage(ctx, session, { retryNow: describeError(err), retryNowCursor: cursor }, err);
    }
  });

  /** A `datetime-local` value carries no zone: the form says UTC. */
  const sinceOf = (value: string) => new Date(/(Z|[+-]\d\d:\d\d)$/.test(value) ? value : `${value}Z`);

  pages.post('/endpoints/:id/recover', async (ctx, session) => {
    const since = formField(ctx, 'since').trim();
    try {
      await meteredAction(ctx, session, deps, () => deps.events.recover(session.account._id, ctx.params.id, sinceOf(since)));
      seeOther(ctx, `${base(ctx.params.id)}?notice=recovery-started`);
    } catch (err) {
      if (!isEndpointFormError(err)) throw err;
      await detailPage(ctx, session, { recover: { since, ...describeError(err) } }, err);
    }
  });

  /** The delete and rotate confirmation pages: each shows the endpoint and posts back to its own path. */
  for (const [path, confirmPage] of [['delete', deleteEndpointPage], ['secret/rotate', rotateSecretPage]] as const) {
    pages.get(`/endpoints/:id/${path}`, async (ctx, session) => {
      sendHtml(ctx, 200, confirmPage(session, await deps.endpoints.get(session.account._id, ctx.params.id)));
    });
  }

  pages.post('/endpoints/:id/delete', async (ctx, session) => {
    await meteredAction(ctx, session, deps, () => deps.endpoints.delete(session.account._id, ctx.params.id));
    seeOther(ctx, '/dashboard/endpoints?notice=endpoint-deleted');
  });

  pages.get('/endpoints/:id/secret', async (ctx, session) => {
    const endpoint = await deps.endpoints.get(session.account._id, ctx.params.id);
    const secret = await deps.endpoints.getSecret(session.account._id, ctx.params.id);
    sendHtml(ctx, 200, endpointSecretPage(session, endpoint, secret, queryNotice(ctx)));
  });

  pages.post('/endpoints/:id/secret/rotate', async (ctx, session) => {
    const grace = readGracePeriod(ctx);
    await meteredAction(ctx, session, deps, () => deps.endpoints.rotateSecret(session.account._id, ctx.params.id, grace));
    seeOther(ctx, `${base(ctx.params.id)}/secret?notice=secret-rotated`);
  });
}

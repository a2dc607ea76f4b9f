import type { Context } from 'koa';
import { parseInput } from '../../route';
import { PortalSettingsBody } from '../../routes/webhooks/tenant-schemas';
import type { DashboardDeps } from '../deps';
import { meteredAction } from '../metered-action';
import { describeError, formField, isFormError, queryNotice, seeOther, sendErrorPage, sendHtml } from '../render';
import type { SignedInRouter } from '../session';
import { type PortalSettingsForm, portalSettingsForm, portalSettingsPage } from '../templates/portal-settings';

function readForm(ctx: Context): PortalSettingsForm {
  return {
    allowed_origins: formField(ctx, 'allowed_origins'),
    name: formField(ctx, 'name').trim(),
    logo_url: formField(ctx, 'logo_url').trim(),
    accent_color: formField(ctx, 'accent_color').trim(),
  };
}

/** The form as the API's PATCH body (every field: the form shows them all), checked by the API's own schema, in its words. */
function settingsPatch(form: PortalSettingsForm) {
  const orNull = (value: string) => (value === '' ? null : value);
  const origins = form.allowed_origins
    .split(/[\n\r,]+/)
    .map((o) => o.trim())
    .filter((o) => o.length > 0);
  return parseInput(
    PortalSettingsBody,
    { allowed_origins: origins, name: orNull(form.name), logo_url: orNull(form.logo_url), accent_color: orNull(form.accent_color.toLowerCase()) },
    'body',
  );
}

/** The account's portal settings, as `PATCH /api/v1/webhooks/portal-settings` changes them. */
export function portalSettingsRoutes(pages: SignedInRouter, deps: DashboardDeps): void {
  pages.get('/portal', async (ctx, session) => {
    const settings = await deps.portalSettings.get(session.account._id);
    sendHtml(ctx, 200, portalSettingsPage(session, { form: portalSettingsForm(settings), notice: queryNotice(ctx) }));
  });

  pages.post('/portal', async (ctx, session) => {
    const form = readForm(ctx);
    try {
      await meteredAction(ctx, session, deps, () => deps.portalSettings.update(session.account._id, settingsPatch(form)));
      seeOther(ctx, '/dashboard/portal?notice=portal-settings-saved');
    } catch (err) {
      if (!isFormError(err)) throw err;
      sendErrorPage(ctx, err, portalSettingsPage(session, { form, ...describeError(err) }));
    }
  });
}

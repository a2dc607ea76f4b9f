import type Router from '@koa/router';
import type { Context } from 'koa';
import { ValidationError } from '../../../../domain/errors';
import { INVITE_PATH, type InviteUnusableError, inviteUnusableReason, isInviteUnusable } from '../../../../services/dashboard-invite-service';
import { csrfTokenFor } from '../csrf';
import type { DashboardDeps } from '../deps';
import { formField, seeOther, sendErrorPage, sendHtml } from '../render';
import { setSessionCookie } from '../session';
import { inviteUnusablePage, setPasswordPage } from '../templates/auth';

/** The one-time link `cli account invite` prints: POST sets the password and signs the person in. */
export function inviteRoutes(router: Router, deps: DashboardDeps): void {
  const unusable = (ctx: Context, err: InviteUnusableError) => sendErrorPage(ctx, err, inviteUnusablePage(inviteUnusableReason(err), err.message));

  router.get('/invite/:token', async (ctx) => {
    const token = ctx.params.token;
    try {
      const { email } = await deps.invites.check(token);
      sendHtml(ctx, 200, setPasswordPage({ csrfToken: csrfTokenFor(ctx), action: `${INVITE_PATH}/${token}`, email }));
    } catch (err) {
      if (isInviteUnusable(err)) return unusable(ctx, err);
      throw err;
    }
  });

  router.post('/invite/:token', async (ctx) => {
    const token = ctx.params.token;
    try {
      const accountId = await deps.invites.redeem(token, formField(ctx, 'password'));
      setSessionCookie(ctx, await deps.auth.startSession(accountId));
      seeOther(ctx, '/dashboard?notice=password-set');
    } catch (err) {
      if (isInviteUnusable(err)) return unusable(ctx, err);
      if (err instanceof ValidationError) {
        const { email } = await deps.invites.check(token);
        return sendHtml(ctx, 400, setPasswordPage({ csrfToken: csrfTokenFor(ctx), action: `${INVITE_PATH}/${token}`, email, error: err.message }));
      }
      throw err;
    }
  });
}

import type Router from '@koa/router';
import type { Context } from 'koa';
import { ValidationError } from '../../../../domain/errors';
import { InviteUnusableError } from '../../../../services/dashboard-invite-service';
import { clearCookie, DASHBOARD_PATH, SESSION_COOKIE } from '../cookies';
import { csrfTokenFor } from '../csrf';
import type { DashboardDeps } from '../deps';
import { formField, isFormError, queryNotice, seeOther, sendErrorPage, sendHtml } from '../render';
import { clientIp } from '../../client-ip';
import { sessionOf, setSessionCookie } from '../session';
import { inviteUnusablePage, setPasswordPage, signInPage, signUpPage } from '../templates/auth';

/** The signed-out routes. A refused sign-in or sign-up (a 4xx) re-renders its form, with a generic message for wrong credentials. */
export function authRoutes(router: Router, deps: DashboardDeps): void {
  const credentialForms = [
    ['/sign-in', signInPage, deps.auth.signIn.bind(deps.auth), '/dashboard'],
    ['/sign-up', signUpPage, deps.auth.signUp.bind(deps.auth), '/dashboard?notice=welcome'],
  ] as const;
  for (const [path, formPage, submit, landing] of credentialForms) {
    router.get(path, (ctx) => {
      if (sessionOf(ctx)) return seeOther(ctx, '/dashboard');
      sendHtml(ctx, 200, formPage({ csrfToken: csrfTokenFor(ctx), notice: queryNotice(ctx) }));
    });

    router.post(path, async (ctx) => {
      const email = formField(ctx, 'email');
      try {
        setSessionCookie(ctx, await submit(email, formField(ctx, 'password'), clientIp(ctx)));
        seeOther(ctx, landing);
      } catch (err) {
        if (!isFormError(err)) throw err;
        const emailRefused = err instanceof ValidationError && (err.data.details as { path: string }[] | undefined)?.some((d) => d.path === 'email');
        const error = emailRefused ? 'Enter a valid email address.' : err.message;
        sendErrorPage(ctx, err, formPage({ csrfToken: csrfTokenFor(ctx), email, error }));
      }
    });
  }

  router.post('/sign-out', async (ctx) => {
    await deps.auth.signOut(ctx.cookies.get(SESSION_COOKIE));
    clearCookie(ctx, SESSION_COOKIE, DASHBOARD_PATH);
    seeOther(ctx, '/dashboard/sign-in?notice=signed-out');
  });

  // The one-time link `cli account invite` prints: POST sets the password and signs the person in.
  const unusable = (ctx: Context, err: InviteUnusableError) => sendErrorPage(ctx, err, inviteUnusablePage(err.reason, err.message));
  const passwordPage = (ctx: Context, email: string, err?: ValidationError) =>
    sendErrorPage(ctx, err, setPasswordPage({ csrfToken: csrfTokenFor(ctx), token: ctx.params.token, email, error: err?.message }));

  router.get('/invite/:token', async (ctx) => {
    try {
      passwordPage(ctx, (await deps.invites.check(ctx.params.token)).email);
    } catch (err) {
      if (err instanceof InviteUnusableError) return unusable(ctx, err);
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
      if (err instanceof InviteUnusableError) return unusable(ctx, err);
      if (err instanceof ValidationError) return passwordPage(ctx, (await deps.invites.check(token)).email, err);
      throw err;
    }
  });
}

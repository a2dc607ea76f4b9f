import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ActiveSession, DashboardAuthService, NewSession } from '../../../services/dashboard-auth-service';
import { clearCookie, DASHBOARD_PATH, PRE_AUTH_CSRF_COOKIE, SESSION_COOKIE, setCookie } from './cookies';
import { seeOther } from './render';

/** Only the session cookie identifies here (never Authorization or API keys); an unknown one is cleared. */
export function loadSession(auth: DashboardAuthService): Middleware {
  return async (ctx, next) => {
    const raw = ctx.cookies.get(SESSION_COOKIE);
    if (raw) {
      const session = await auth.resolveSession(raw);
      if (session) ctx.state.dashboard = session;
      else clearCookie(ctx, SESSION_COOKIE, DASHBOARD_PATH);
    }
    await next();
  };
}

export function sessionOf(ctx: Context): ActiveSession | undefined {
  return ctx.state.dashboard as ActiveSession | undefined;
}

/** The pages and forms of a signed-in account: each handler is given the session; signed out, they redirect to sign-in. */
export function signedInRoutes(router: Router) {
  const route = (method: 'get' | 'post') => (path: string, handler: (ctx: Context, session: ActiveSession) => Promise<void> | void) =>
    router[method](path, async (ctx) => {
      const session = sessionOf(ctx);
      if (!session) return seeOther(ctx, `${DASHBOARD_PATH}/sign-in`);
      await handler(ctx, session);
    });
  return { get: route('get'), post: route('post') };
}

export type SignedInRouter = ReturnType<typeof signedInRoutes>;

/** A fresh session replaces any previous cookie (no session fixation) and the pre-auth token. */
export function setSessionCookie(ctx: Context, session: NewSession): void {
  setCookie(ctx, SESSION_COOKIE, session.id, { path: DASHBOARD_PATH, sameSite: 'lax', expires: session.expiresAt });
  clearCookie(ctx, PRE_AUTH_CSRF_COOKIE, DASHBOARD_PATH);
}

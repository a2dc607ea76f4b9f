import type { Context, Middleware } from 'koa';

/** The dashboard's cookies: httpOnly, scoped to /dashboard (the API takes only keys), Secure when people reach it over https. */
export const SESSION_COOKIE = 'dash_session';
/** Double-submit token for the forms shown before there is a session (sign-in, sign-up). */
export const PRE_AUTH_CSRF_COOKIE = 'dash_csrf';
/** Carries a newly created key from the POST to the page that shows it once (PRG without storing the key). */
export const NEW_KEY_COOKIE = 'dash_new_key';

export const DASHBOARD_PATH = '/dashboard';
export const KEYS_PATH = '/dashboard/keys';

/** `spec`: where the cookie goes and for how long (`maxAge` in ms); the rest is the same for all of them. */
export function setCookie(ctx: Context, name: string, value: string, spec: { path: string; sameSite: 'lax' | 'strict'; expires?: Date; maxAge?: number }): void {
  ctx.cookies.set(name, value, { httpOnly: true, secure: ctx.cookies.secure, overwrite: true, ...spec });
}

/**
 * With PUBLIC_URL set, its scheme says whether people reach the dashboard over https, whatever the hop from a TLS proxy
 * to this process was (and whether X-Forwarded-Proto is trusted). Unset: the request's own scheme.
 */
export function cookieScheme(publicOrigin: string | undefined): Middleware {
  if (publicOrigin === undefined) return (_ctx, next) => next();
  const secure = publicOrigin.startsWith('https:');
  return async (ctx, next) => {
    ctx.cookies.secure = secure;
    await next();
  };
}

export function clearCookie(ctx: Context, name: string, path: string): void {
  setCookie(ctx, name, '', { path, sameSite: 'lax', expires: new Date(0) });
}

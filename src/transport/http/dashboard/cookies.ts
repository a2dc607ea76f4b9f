import type { Context } from 'koa';

/** The dashboard's cookies: httpOnly, scoped to /dashboard (the API takes only keys), Secure over https. */
export const SESSION_COOKIE = 'dash_session';
/** Double-submit token for the forms shown before there is a session (sign-in, sign-up). */
export const PRE_AUTH_CSRF_COOKIE = 'dash_csrf';
/** Carries a newly created key from the POST to the page that shows it once (PRG without storing the key). */
export const NEW_KEY_COOKIE = 'dash_new_key';

export const DASHBOARD_PATH = '/dashboard';
export const KEYS_PATH = '/dashboard/keys';

/** `spec`: where the cookie goes and for how long (`maxAge` in ms); the rest is the same for all of them. */
export function setCookie(ctx: Context, name: string, value: string, spec: { path: string; sameSite: 'lax' | 'strict'; expires?: Date; maxAge?: number }): void {
  ctx.cookies.set(name, value, { httpOnly: true, secure: ctx.secure, overwrite: true, ...spec });
}

export function clearCookie(ctx: Context, name: string, path: string): void {
  setCookie(ctx, name, '', { path, sameSite: 'lax', expires: new Date(0) });
}

import type { Context } from 'koa';

/** The dashboard's cookies: httpOnly, scoped to /dashboard (the API takes only keys), Secure over https. */
export const SESSION_COOKIE = 'dash_session';
/** Double-submit token for the forms shown before there is a session (sign-in, sign-up). */
export const PRE_AUTH_CSRF_COOKIE = 'dash_csrf';
/** Carries a newly created key from the POST to the page that shows it once (PRG without storing the key). */
export const NEW_KEY_COOKIE = 'dash_new_key';

export const DASHBOARD_PATH = '/dashboard';
export const KEYS_PATH = '/dashboard/keys';

interface CookieSpec {
  path: string;
  sameSite: 'lax' | 'strict';
  expires?: Date;
  maxAgeMs?: number;
}

export function setCookie(ctx: Context, name: string, value: string, spec: CookieSpec): void {
  ctx.cookies.set(name, value, {
    httpOnly: true,
    secure: ctx.secure,
    sameSite: spec.sameSite,
    path: spec.path,
    expires: spec.expires,
    maxAge: spec.maxAgeMs,
    overwrite: true,
  });
}

export function clearCookie(ctx: Context, name: string, path: string): void {
  ctx.cookies.set(name, '', { httpOnly: true, secure: ctx.secure, sameSite: 'lax', path, expires: new Date(0), overwrite: true });
}

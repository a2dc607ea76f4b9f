import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { DomainError } from '../../../domain/errors';
import { isSecretToken, newSecretToken } from '../../../services/dashboard-auth-service';
import { DASHBOARD_PATH, PRE_AUTH_CSRF_COOKIE, setCookie } from './cookies';
import { formField } from './render';
import { sessionOf } from './session';

export const CSRF_FIELD = '_csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function csrfFailed(): DomainError<'csrf_failed'> {
  return new DomainError('csrf_failed', 'This form has expired or did not come from this site. Reload the page and try again.');
}

/** Compares in constant time; hashing first makes both sides the same length. */
export function tokensMatch(expected: string, given: string): boolean {
  const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(given));
}

/** The token forms must echo: the session's synchronizer token, or (signed out) the double-submit cookie. */
export function csrfTokenFor(ctx: Context): string {
  const session = sessionOf(ctx);
  if (session) return session.csrfToken;
  let token = ctx.cookies.get(PRE_AUTH_CSRF_COOKIE);
  if (!token || !isSecretToken(token)) {
    token = newSecretToken();
    setCookie(ctx, PRE_AUTH_CSRF_COOKIE, token, { path: DASHBOARD_PATH, sameSite: 'lax' });
  }
  return token;
}

/**
 * A state-changing request must not come from another origin (Origin, Sec-Fetch-Site, when sent) and must echo csrfTokenFor's
 * token. Our origin is PUBLIC_URL's when set (behind a TLS proxy this process sees http); else the request's own.
 */
export function csrfProtection(publicOrigin: string | undefined): Middleware {
  return async (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method)) return next();
    const origin = ctx.get('Origin');
    // Built explicitly: in Koa 3, ctx.origin is the Origin request header itself.
    if (origin && origin !== (publicOrigin ?? `${ctx.protocol}://${ctx.host}`)) throw csrfFailed();
    const site = ctx.get('Sec-Fetch-Site');
    if (site && site !== 'same-origin' && site !== 'none') throw csrfFailed();

    const session = sessionOf(ctx);
    const expected = session ? session.csrfToken : ctx.cookies.get(PRE_AUTH_CSRF_COOKIE);
    if (!expected || !tokensMatch(expected, formField(ctx, CSRF_FIELD))) throw csrfFailed();
    await next();
  };
}

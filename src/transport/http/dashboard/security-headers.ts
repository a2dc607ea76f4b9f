import type { Middleware } from 'koa';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/** Pages are never cached (they show keys and secrets); assets set their own Cache-Control after this. */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
}

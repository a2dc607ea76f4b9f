import type { Context, Middleware } from 'koa';
import { DomainError } from '../../../domain/errors';
import { productForPathSegment, PRODUCTS } from '../../../domain/keys/products';
import type { LimitAdmitter } from '../../../domain/limits/admission';
import { bearerToken, KeyAuthenticator, Principal } from '../../../services/key-authenticator';
import { accountPolicy } from '../../../domain/limits/policies';
import { metered, shedUnmetered } from './metered';

export const KEY_SCOPED_PREFIX = '/api/v1/';

export interface KeyScopedOptions {
  /**
   * The screen of a call the platform may shed before it is metered or its body read (ingest under
   * overload), undefined for other calls: asked after authentication and the product check, and it
   * throws `overloaded` to refuse.
   */
  shedEarly?: (ctx: Context) => (() => void) | undefined;
}

/**
 * Every call under /api/v1/: the bearer key is authenticated (401), the call is metered
 * against the account's tier (429; 403s are counted too), then the key's product must be
 * the product whose API the path names (403 naming that product). A call `shedEarly` refuses
 * is answered 503 without being metered (metered.ts, shedUnmetered).
 */
export function keyScoped(authenticator: KeyAuthenticator, limiter: LimitAdmitter, options: KeyScopedOptions = {}): Middleware {
  return async (ctx, next) => {
    // Compared case-insensitively so that no spelling of a key-scoped path escapes authentication or the product check.
    const path = ctx.path.toLowerCase();
    if (!path.startsWith(KEY_SCOPED_PREFIX)) return next();
    const principal = await authenticator.authenticate(bearerToken(ctx.get('Authorization') || undefined));
    ctx.state.principal = principal;
    const policy = accountPolicy(principal.account._id, principal.account.tier);
    const product = productForPathSegment(path.slice(KEY_SCOPED_PREFIX.length).split('/')[0]);
    // The product whose API the path names, when the key is not of it.
    const wrongProduct = product !== undefined && product !== principal.key.product ? product : undefined;
    const screen = wrongProduct === undefined ? options.shedEarly?.(ctx) : undefined;
    if (screen) shedUnmetered(ctx, limiter, policy, screen);
    await metered(ctx, limiter, policy, async () => {
      if (wrongProduct !== undefined) throw new DomainError('wrong_product', `API key is not authorized for ${PRODUCTS[wrongProduct].name}.`);
      await next();
    });
  };
}

/** The key's account of a call keyScoped let through. */
export function accountOf(ctx: Context): string {
  return (ctx.state.principal as Principal).account._id;
}

import type { Context, Middleware } from 'koa';
import { DomainError } from '../../../domain/errors';
import { productForPathSegment, PRODUCTS } from '../../../domain/keys/products';
import type { LimitAdmitter } from '../../../domain/limits/admission';
import { bearerToken, KeyAuthenticator, Principal } from '../../../services/key-authenticator';
import { accountPolicy } from '../../../domain/limits/policies';
import { metered } from './metered';

export const KEY_SCOPED_PREFIX = '/api/v1/';

/**
 * Every call under /api/v1/: the bearer key is authenticated (401), the call is metered
 * against the account's tier (429; 403s are counted too), then the key's product must be
 * the product whose API the path names (403 naming that product).
 */
export function keyScoped(authenticator: KeyAuthenticator, limiter: LimitAdmitter): Middleware {
  return async (ctx, next) => {
    // Compared case-insensitively so that no spelling of a key-scoped path escapes authentication or the product check.
    const path = ctx.path.toLowerCase();
    if (!path.startsWith(KEY_SCOPED_PREFIX)) return next();
    const principal = await authenticator.authenticate(bearerToken(ctx.get('Authorization') || undefined));
    ctx.state.principal = principal;
    await metered(ctx, limiter, accountPolicy(principal.account._id, principal.account.tier), async () => {
      const segment = path.slice(KEY_SCOPED_PREFIX.length).split('/')[0];
      const product = productForPathSegment(segment);
      if (product && product !== principal.key.product) {
        throw new DomainError('wrong_product', `API key is not authorized for ${PRODUCTS[product].name}.`);
      }
      await next();
    });
  };
}

/** The key's account of a call keyScoped let through. */
export function accountOf(ctx: Context): string {
  return (ctx.state.principal as Principal).account._id;
}

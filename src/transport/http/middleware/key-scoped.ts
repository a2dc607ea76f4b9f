import type { Context, Middleware } from 'koa';
import { DomainError } from '../../../domain/errors';
import { type Product, productForPathSegment, PRODUCTS } from '../../../domain/keys/products';
import type { LimitAdmitter, LimitPolicy } from '../../../domain/limits/admission';
import { bearerToken, KeyAuthenticator, Principal } from '../../../services/key-authenticator';
import { accountPolicy } from '../../../domain/limits/policies';
import { admitUnmetered, metered } from './metered';

export const KEY_SCOPED_PREFIX = '/api/v1/';

/** The product whose API a key-scoped path (lower-cased) names, if any: a key of another product is refused there. */
export function productOfPath(path: string): Product | undefined {
  return productForPathSegment(path.slice(KEY_SCOPED_PREFIX.length).split('/')[0]);
}

/** Decides whether the platform takes a call now: throws (`overloaded`) to refuse, else returns the release of its place, called once it is answered. */
export type EarlyAdmission = () => () => void;

/**
 * Every call under /api/v1/: key authenticated (401), metered (429; a 403 counts too), then held to the product
 * its path names (403). A call `admitEarly` (asked once, after auth) refuses is a 503 that is not metered.
 */
export function keyScoped(authenticator: KeyAuthenticator, limiter: LimitAdmitter, admitEarly: (ctx: Context) => EarlyAdmission | undefined): Middleware {
  const scoped = (ctx: Context, next: () => Promise<unknown>, path: string, principal: Principal): Promise<unknown> => {
    ctx.state.principal = principal;
    const policy = accountPolicy(principal.account._id, principal.account.tier);
    const product = productOfPath(path);
    const wrongProduct = product !== undefined && product !== principal.key.product ? product : undefined;
    const admit = wrongProduct === undefined ? admitEarly(ctx) : undefined;
    if (wrongProduct === undefined && admit === undefined) return metered(ctx, limiter, policy, next);
    return checked(ctx, next, policy, wrongProduct, admit);
  };
  /** A call of another product's path, or one `admitEarly` decides. */
  const checked = async (ctx: Context, next: () => Promise<unknown>, policy: LimitPolicy, wrongProduct: Product | undefined, admit: EarlyAdmission | undefined) => {
    let release = admit && admitUnmetered(ctx, limiter, policy, admit);
    try {
      await metered(ctx, limiter, policy, async () => {
        if (wrongProduct !== undefined) throw new DomainError('wrong_product', `API key is not authorized for ${PRODUCTS[wrongProduct].name}.`);
        // Its limits were unknown here or used up, so it was left to metering: decided now that
        // metering let it through (its 503 is given back), still before its body is read.
        if (admit && !release) release = admit();
        await next();
      });
    } finally {
      release?.();
    }
  };
  // Not async: a cached key (nearly every call) is answered without a promise of its own (koa-compose turns a throw into a rejection).
  return (ctx, next) => {
    // Compared case-insensitively so that no spelling of a key-scoped path escapes authentication or the product check.
    const path = ctx.path.toLowerCase();
    if (!path.startsWith(KEY_SCOPED_PREFIX)) return next();
    const principal = authenticator.principalOf(bearerToken(ctx.headers.authorization));
    return principal instanceof Promise ? principal.then((known) => scoped(ctx, next, path, known)) : scoped(ctx, next, path, principal);
  };
}

/** The key's account of a call keyScoped let through. */
export function accountOf(ctx: Context): string {
  return (ctx.state.principal as Principal).account._id;
}

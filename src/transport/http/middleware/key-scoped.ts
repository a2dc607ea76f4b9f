import type { Context, Middleware } from 'koa';
import { DomainError } from '../../../domain/errors';
import { type Product, productForPathSegment, PRODUCTS } from '../../../domain/keys/products';
import type { LimitAdmitter, LimitPolicy } from '../../../domain/limits/admission';
import { bearerToken, KeyAuthenticator, Principal } from '../../../services/key-authenticator';
import { accountPolicy } from '../../../domain/limits/policies';
import { admitUnmetered, metered } from './metered';
import { isPortalToken } from '../../../domain/webhooks/portal-session';
import type { PortalPrincipal, PortalSessionService } from '../../../services/portal-session-service';

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
export function keyScoped(
  authenticator: KeyAuthenticator,
  limiter: LimitAdmitter,
  admitEarly: (ctx: Context) => EarlyAdmission | undefined,
  portal?: Pick<PortalSessionService, 'principalOf'>,
): Middleware {
  const scoped = (ctx: Context, keyNext: () => Promise<unknown>, path: string, principal: Principal | PortalPrincipal): Promise<unknown> => {
    ctx.state.principal = principal;
    const next = 'portal' in principal ? portalGuarded(ctx, path, principal, keyNext) : keyNext;
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
    const token = bearerToken(ctx.headers.authorization);
    if (portal && isPortalToken(token)) return portal.principalOf(token).then((session) => scoped(ctx, next, path, session));
    const principal = authenticator.principalOf(token);
    return principal instanceof Promise ? principal.then((known) => scoped(ctx, next, path, known)) : scoped(ctx, next, path, principal);
  };
}

/** The key's account of a call keyScoped let through. */
export function accountOf(ctx: Context): string {
  return (ctx.state.principal as Principal).account._id;
}

/** The paths a portal session may call (lower-cased), for its own tenant's records only. */
const PORTAL_PATHS = ['/api/v1/webhooks/endpoints', '/api/v1/webhooks/events'];
/** What the portal page shows beside them and may only read: the account's event-type catalog and its branding. */
const PORTAL_READ_PATHS = ['/api/v1/webhooks/event-types', '/api/v1/webhooks/portal-settings'];
const READS = new Set(['GET', 'HEAD']);
const under = (paths: string[], path: string) => paths.some((p) => path === p || path.startsWith(`${p}/`));

/** Refused inside metering, so that they count as every 403 does (CONTRACT §2). */
function portalGuarded(ctx: Context, path: string, principal: PortalPrincipal, next: () => Promise<unknown>): () => Promise<unknown> {
  return async () => {
    if (!under(PORTAL_PATHS, path) && !(READS.has(ctx.method) && under(PORTAL_READ_PATHS, path))) {
      throw new DomainError(
        'portal_not_allowed',
        'A portal session may call only the endpoint and event paths of the webhook API, and read the event types and the portal settings.',
      );
    }
    if (principal.portal.readOnly && !READS.has(ctx.method)) throw new DomainError('portal_read_only', 'This portal session is read-only.');
    await next();
  };
}

/** The tenant a portal session's call is held to; undefined for a call made with a key (the whole account). */
export function portalTenantOf(ctx: Context): string | undefined {
  return (ctx.state.principal as Partial<PortalPrincipal>).portal?.tenantId;
}

/** Whose records the call may see and change: the key's account, or a portal session's tenant of it (RecordOwner). */
export function ownerOfCall(ctx: Context): { accountId: string; tenantId?: string } {
  const tenantId = portalTenantOf(ctx);
  return { accountId: accountOf(ctx), ...(tenantId !== undefined && { tenantId }) };
}

/**
 * The tenant a call names (`requested`), held to the portal session's: a session's call names its own tenant or none
 * (then its own); another is a 403. A key's call keeps what it names.
 */
export function tenantForCall<T extends string | null | undefined>(ctx: Context, requested: T): T | string {
  const own = portalTenantOf(ctx);
  if (own === undefined || requested === undefined) return own ?? requested;
  if (requested !== own) throw new DomainError('portal_not_allowed', "A portal session may name only its own tenant's id.");
  return own;
}

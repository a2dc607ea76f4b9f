import type { Context } from 'koa';
import { portalPagePath } from './portal/paths';

/**
 * The account's portal page that a portal session's link opens (`/portal/<account id>`): on PUBLIC_URL's origin when set,
 * else on the origin the call came to (built explicitly: in Koa 3, ctx.origin is the Origin request header itself). The
 * API's portal sessions and the dashboard's "Open portal" both link here.
 */
export function portalPageUrl(ctx: Context, publicOrigin: string | undefined, accountId: string): string {
  return `${publicOrigin ?? `${ctx.protocol}://${ctx.host}`}${portalPagePath(accountId)}`;
}

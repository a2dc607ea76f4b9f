import type { Middleware } from 'koa';
import { methodNotAllowed } from '../../../domain/errors';
import type { PortalSettingsService } from '../../../services/portal-settings-service';
import { servePortalAssets } from './assets';
import { sendPortalNotFound, sendPortalPage } from './page';
import { accountOfPortalPath, isPortalPath } from './paths';

/**
 * The tenants' portal page and its two assets. It is not a second back end: the page's script calls the public API with
 * the session's token; this only serves the shell, with the account's framing and image rules in its headers.
 */
export function portalMiddleware(deps: { portalSettings: Pick<PortalSettingsService, 'find'> }): Middleware {
  const assets = servePortalAssets();
  return async (ctx, next) => {
    if (!isPortalPath(ctx.path)) return next();
    await assets(ctx, async () => {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw methodNotAllowed(`Method ${ctx.method} is not allowed on ${ctx.path}.`, ['GET', 'HEAD']);
      const accountId = accountOfPortalPath(ctx.path);
      const settings = accountId === undefined ? null : await deps.portalSettings.find(accountId);
      if (accountId === undefined || !settings) return sendPortalNotFound(ctx);
      sendPortalPage(ctx, accountId, settings);
    });
  };
}

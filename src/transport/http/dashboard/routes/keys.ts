import { DomainError, isDomainError } from '../../../../domain/errors';
import { PRODUCTS } from '../../../../domain/keys/products';
import { clearCookie, KEYS_PATH, NEW_KEY_COOKIE, setCookie } from '../cookies';
import type { DashboardDeps } from '../deps';
import { meteredAction } from '../metered-action';
import { formField, isFormError, queryNotice, seeOther, sendErrorPage, sendHtml } from '../render';
import type { SignedInRouter } from '../session';
import { keysPage, newKeyPage, revokeKeyPage } from '../templates/keys';

/** The new key travels to its one-time page in a short-lived cookie: it is never stored server-side. */
const NEW_KEY_TTL_MS = 5 * 60 * 1000;

export function keyRoutes(pages: SignedInRouter, deps: DashboardDeps): void {
  pages.get('/keys', async (ctx, session) => {
    const keys = await deps.accounts.listKeys(session.account._id);
    sendHtml(ctx, 200, keysPage(session, { keys, notice: queryNotice(ctx) }));
  });

  pages.post('/keys', async (ctx, session) => {
    const form = { product: formField(ctx, 'product'), label: formField(ctx, 'label') };
    try {
      const created = await meteredAction(ctx, session, deps, () => deps.accounts.createKey(session.account._id, form.product, form.label));
      setCookie(ctx, NEW_KEY_COOKIE, created.key, { path: KEYS_PATH, sameSite: 'strict', maxAge: NEW_KEY_TTL_MS });
      seeOther(ctx, `${KEYS_PATH}/new`);
    } catch (err) {
      if (!isFormError(err)) throw err;
      const keys = await deps.accounts.listKeys(session.account._id);
      sendErrorPage(ctx, err, keysPage(session, { keys, form, error: err.message }));
    }
  });

  /** Shows the new key once: the cookie is cleared by this very response, so a reload shows nothing. */
  pages.get('/keys/new', async (ctx, session) => {
    const key = ctx.cookies.get(NEW_KEY_COOKIE);
    clearCookie(ctx, NEW_KEY_COOKIE, KEYS_PATH);
    const principal = key
      ? await deps.authenticator.authenticate(key).catch((err: unknown) => {
          if (isDomainError(err, 'invalid_api_key', 'revoked_api_key')) return undefined;
          throw err;
        })
      : undefined;
    // Only ever display a live key of the signed-in account (a planted cookie shows nothing).
    if (!key || principal?.account._id !== session.account._id) return seeOther(ctx, `${KEYS_PATH}?notice=key-hidden`);
    sendHtml(ctx, 200, newKeyPage(session, { key, productName: PRODUCTS[principal.key.product].name, label: principal.key.label }));
  });

  pages.get('/keys/:id/revoke', async (ctx, session) => {
    const key = (await deps.accounts.listKeys(session.account._id)).find((k) => k.id === ctx.params.id);
    if (!key) throw new DomainError('not_found', 'No such key in this account.');
    if (key.revoked_at) return seeOther(ctx, `${KEYS_PATH}?notice=key-revoked`);
    sendHtml(ctx, 200, revokeKeyPage(session, key));
  });

  pages.post('/keys/:id/revoke', async (ctx, session) => {
    // Not metered: whoever holds a leaked key could otherwise use up the account's calls and so keep its owner from
    // revoking it. What it costs is bounded by the keys made, which are metered. Scoped to the account: another
    // account's key id is a 404, and nothing changes.
    try {
      await deps.accounts.revokeKey(ctx.params.id, session.account._id);
    } catch (err) {
      if (isDomainError(err, 'not_found')) throw new DomainError('not_found', 'No such key in this account.');
      throw err;
    }
    seeOther(ctx, `${KEYS_PATH}?notice=key-revoked`);
  });
}

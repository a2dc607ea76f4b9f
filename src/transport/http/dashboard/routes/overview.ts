import { billingPeriodAt } from '../../../../domain/limits/billing-period';
import { accountBucket } from '../../../../domain/limits/policies';
import type { DashboardDeps } from '../deps';
import { queryNotice, sendHtml } from '../render';
import type { SignedInRouter } from '../session';
import { overviewPage } from '../templates/overview';

/** Tier, this month's metered calls (the limiter's own usage records) and the burst limit. */
export function overviewRoutes(pages: SignedInRouter, deps: DashboardDeps): void {
  pages.get('/', async (ctx, session) => {
    const accountId = session.account._id;
    const [used, keys, endpoints] = await Promise.all([
      deps.limiter.usage(accountBucket(accountId)),
      deps.accounts.listKeys(accountId),
      deps.endpoints.count(accountId),
    ]);
    sendHtml(
      ctx,
      200,
      overviewPage(session, {
        usedThisMonth: used,
        quotaResetsAt: billingPeriodAt(new Date()).end,
        activeKeys: keys.filter((k) => !k.revoked_at).length,
        endpoints,
        notice: queryNotice(ctx),
      }),
    );
  });
}

import { TIERS } from '../../../../domain/limits/tiers';
import type { ActiveSession } from '../../../../services/dashboard-auth-service';
import { html, SafeHtml } from '../html';
import { integer, time } from './format';
import { type Feedback, page } from './layout';

export function overviewPage(session: ActiveSession, view: Pick<Feedback, 'notice'> & { usedThisMonth: number; quotaResetsAt: Date; activeKeys: number; endpoints: number }): SafeHtml {
  const { name, monthlyQuota, burstPerMinute } = TIERS[session.account.tier];
  const limited = Number.isFinite(monthlyQuota);
  const percent = limited && monthlyQuota > 0 ? Math.min(100, Math.round((view.usedThisMonth / monthlyQuota) * 100)) : 0;
  return page(
    { title: 'Overview', session, active: 'overview', notice: view.notice },
    html`<h1>Overview</h1>
<section aria-labelledby="plan-heading">
  <h2 id="plan-heading" class="visually-hidden">Plan and usage</h2>
  <div class="grid">
    <div class="card stat">
      <p class="label">Plan</p>
      <p class="value" data-testid="tier">${name}</p>
    </div>
    <div class="card stat">
      <p class="label" id="usage-label">API calls this month</p>
      <p class="value" data-testid="usage">${integer(view.usedThisMonth)} <span class="muted">of ${integer(monthlyQuota)}</span></p>
      ${
        limited
          ? html`<meter min="0" max="${monthlyQuota}" value="${Math.min(view.usedThisMonth, monthlyQuota)}" high="${Math.floor(monthlyQuota * 0.8)}" optimum="0" aria-labelledby="usage-label">${percent}%</meter>
      <p class="hint">${percent}% used · resets ${time(view.quotaResetsAt)}</p>`
          : html`<p class="hint">No monthly quota on this plan.</p>`
      }
    </div>
    <div class="card stat">
      <p class="label">Burst limit</p>
      <p class="value" data-testid="burst">${integer(burstPerMinute)} <span class="muted">calls / minute</span></p>
      <p class="hint">Per account, across all keys.</p>
    </div>
  </div>
</section>
<section aria-labelledby="start-heading">
  <h2 id="start-heading">Getting started</h2>
  <ol>
    <li><a href="/dashboard/keys">Create an API key</a> for Webhook Reliability (you have ${view.activeKeys} active ${view.activeKeys === 1 ? 'key' : 'keys'}).</li>
    <li><a href="/dashboard/endpoints">Register a webhook endpoint</a> (${view.endpoints === 0 ? 'none yet' : `${view.endpoints} registered`}).</li>
    <li><a href="/dashboard/events">Send a test event</a> and watch its delivery attempts.</li>
    <li><a href="/dashboard/cost-estimator">Estimate the cost</a> of the infrastructure you run.</li>
  </ol>
  <p class="muted">Calls with your keys go to <code>/api/v1/…</code> with <code>Authorization: Bearer &lt;key&gt;</code>. See the <a href="/docs">API reference</a>.</p>
</section>`,
  );
}

import { type Catalog, CATEGORIES, type CatalogEntry, DEFAULT_HOURS_PER_MONTH, type Estimate, MAX_HOURS_PER_MONTH, PROVIDERS } from '../../../../domain/cost-estimator';
import type { ActiveSession } from '../../../../services/dashboard-auth-service';
import { html, SafeHtml } from '../html';
import { time, unitPrice, usd } from './format';
import { errorBox, type Feedback, option, page } from './layout';
import { columnHeading } from './list-section';

/** One row of the form, as typed (strings), so a re-rendered form shows exactly what was entered. */
export interface EstimatorRow {
  entry: string;
  quantity: string;
  hours: string;
  gb: string;
}

export interface EstimatorView extends Pick<Feedback, 'error' | 'details'> {
  catalog: Catalog;
  rows: EstimatorRow[];
  estimate?: Estimate;
}

export const PROVIDER_NAMES: Record<string, string> = { aws: 'AWS', gcp: 'Google Cloud', azure: 'Azure' };
const categoryName = (c: string) => (c === 'ai_ml' ? 'AI / ML' : c === 'cdn' ? 'CDN' : c[0].toUpperCase() + c.slice(1));

/** A catalog entry as one form value; parts are URI-encoded so the separator cannot occur inside them. */
export function entryKey(e: Pick<CatalogEntry, 'provider' | 'service' | 'instance'>): string {
  return [e.provider, e.service, e.instance].map(encodeURIComponent).join('|');
}

function entrySelect(catalog: Catalog, id: string, selected: string): SafeHtml {
  const groups = PROVIDERS.flatMap((provider) =>
    CATEGORIES.map((category) => ({ provider, category, entries: catalog.filter({ provider, category }) })),
  ).filter((g) => g.entries.length > 0);
  return html`<select id="${id}" name="${id}">
    <option value="">Choose a service…</option>
    ${groups.map(
      (g) => html`<optgroup label="${PROVIDER_NAMES[g.provider]} · ${categoryName(g.category)}">${g.entries.map((e) =>
        option(entryKey(e), `${e.service} · ${e.instance} · ${unitPrice(e.priceUsd)} ${e.priceUnit}`, selected),
      )}</optgroup>`,
    )}
  </select>`;
}

function rowFields(catalog: Catalog, row: EstimatorRow, i: number): SafeHtml {
  return html`<fieldset>
    <legend>Item ${i + 1}</legend>
    <div class="field">
      <label for="entry_${i}">Service and configuration</label>
      ${entrySelect(catalog, `entry_${i}`, row.entry)}
    </div>
    <div class="inline-fields spaced">
      <div class="field">
        <label for="quantity_${i}">Quantity</label>
        <input id="quantity_${i}" name="quantity_${i}" type="number" inputmode="decimal" min="0" step="any" value="${row.quantity}" aria-describedby="quantity-hint">
      </div>
      <div class="field">
        <label for="hours_${i}">Hours per month</label>
        <input id="hours_${i}" name="hours_${i}" type="number" inputmode="decimal" min="0" max="${MAX_HOURS_PER_MONTH}" step="any" placeholder="${DEFAULT_HOURS_PER_MONTH}" value="${row.hours}" aria-describedby="hours-hint">
      </div>
      <div class="field">
        <label for="gb_${i}">GB per month</label>
        <input id="gb_${i}" name="gb_${i}" type="number" inputmode="decimal" min="0" step="any" value="${row.gb}" aria-describedby="gb-hint">
      </div>
    </div>
  </fieldset>`;
}

function results(estimate: Estimate): SafeHtml {
  return html`<section aria-labelledby="result-heading">
  <h2 id="result-heading">Estimate</h2>
  <div class="grid">
    <div class="card stat"><p class="label">Monthly total</p><p class="value" data-testid="total-monthly">${usd(estimate.totalMonthlyUsd)}</p></div>
    <div class="card stat"><p class="label">Annual total</p><p class="value" data-testid="total-annual">${usd(estimate.totalAnnualUsd)}</p></div>
  </div>
  <div class="table-wrap" role="region" aria-labelledby="breakdown-caption" tabindex="0">
    <table class="stack-on-phone">
      <caption id="breakdown-caption">Itemized monthly cost</caption>
      <thead><tr>${['Provider', 'Service', 'Configuration', { numeric: 'Quantity' }, { numeric: 'Unit price' }, { numeric: 'Monthly' }].map(columnHeading)}</tr></thead>
      <tbody>
        ${estimate.breakdown.map(
          (line) => html`<tr data-testid="breakdown-line">
          <td data-label="Provider">${PROVIDER_NAMES[line.provider]}</td>
          <td data-label="Service">${line.service}</td>
          <td data-label="Configuration">${line.instance}</td>
          <td data-label="Quantity" class="num">${String(line.quantity)}</td>
          <td data-label="Unit price" class="num"><span>${unitPrice(line.unitPrice)} <span class="muted">${line.priceUnit}</span></span></td>
          <td data-label="Monthly" class="num">${usd(line.monthlyUsd)}</td>
        </tr>`,
        )}
      </tbody>
      <tfoot>
        <tr><th scope="row" colspan="5">Total per month</th><td class="num">${usd(estimate.totalMonthlyUsd)}</td></tr>
        <tr><th scope="row" colspan="5">Total per year</th><td class="num">${usd(estimate.totalAnnualUsd)}</td></tr>
      </tfoot>
    </table>
  </div>
  <p class="hint">Computed ${time(estimate.generatedAt)}. The same numbers come from <code>POST /api/cost-estimator</code>.</p>
</section>`;
}

export function costEstimatorPage(session: ActiveSession, view: EstimatorView): SafeHtml {
  const regions = PROVIDERS.map((p) => `${PROVIDER_NAMES[p]} ${view.catalog.regions[p]}`).join(', ');
  return page(
    { title: 'Cost estimator', session, active: 'cost-estimator' },
    html`<h1>Cost estimator</h1>
<p class="lead">Pick services from the ${view.catalog.entries.length}-entry catalog (list prices of ${view.catalog.pricedAt}; ${regions}) and see the monthly and annual totals.</p>
${view.estimate && results(view.estimate)}
${errorBox(view.error, view.details)}
<form method="get" action="/dashboard/cost-estimator" class="stack card" aria-labelledby="items-heading">
  <h2 id="items-heading">Items</h2>
  <ul class="hint">
    <li id="quantity-hint">Quantity: instances or units; for prices per million, 10K, 1K or 100K things, or per GB-second, the number of those blocks (3 at “per million requests” = 3 million requests).</li>
    <li id="hours-hint">Hours per month: for prices per hour, vCPU-hour or GB-hour. Empty means ${DEFAULT_HOURS_PER_MONTH} (always on).</li>
    <li id="gb-hint">GB per month: required for prices per GB and per GB/month.</li>
  </ul>
  <input type="hidden" name="rows" value="${view.rows.length}">
  ${view.rows.map((row, i) => rowFields(view.catalog, row, i))}
  <div class="actions">
    <button type="submit" name="estimate" value="1">Estimate</button>
    <button type="submit" name="add_row" value="1" class="secondary">Add another item</button>
  </div>
</form>`,
  );
}

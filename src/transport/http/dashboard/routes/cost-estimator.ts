import { unescape } from 'node:querystring';
import type { Context } from 'koa';
import { Catalog, estimateCost, EstimateItem, estimateRequestSchema, type ExactEstimateItem, PROVIDERS, Provider } from '../../../../domain/cost-estimator';
import { DomainError } from '../../../../domain/errors';
import { ExactNumber, mayHoldInexactNumbers } from '../../../../domain/webhooks/exact-json';
import type { DashboardDeps } from '../deps';
import { queryField, sendHtml } from '../render';
import type { SignedInRouter } from '../session';
import { costEstimatorPage, EstimatorRow, type EstimatorView } from '../templates/cost-estimator';
import { formNumber } from '../form-number';

const DEFAULT_ROWS = 3;
const MAX_ROWS = 20;

type ItemFromRow = { row: number; item: EstimateItem };

function readRows(ctx: Context): EstimatorRow[] {
  const requested = Number.parseInt(queryField(ctx, 'rows'), 10);
  let count = Number.isInteger(requested) && requested > 0 ? requested : DEFAULT_ROWS;
  if (queryField(ctx, 'add_row')) count += 1;
  count = Math.min(MAX_ROWS, count);
  return Array.from({ length: count }, (_, i) => ({
    entry: queryField(ctx, `entry_${i}`),
    quantity: queryField(ctx, `quantity_${i}`) || (queryField(ctx, `entry_${i}`) ? '' : '1'),
    hours: queryField(ctx, `hours_${i}`),
    gb: queryField(ctx, `gb_${i}`),
  }));
}

/** Turns the chosen rows into API items; problems are collected per row ("Item 2: …"). */
function itemsFromRows(rows: EstimatorRow[], catalog: Catalog): { items: ItemFromRow[]; problems: string[] } {
  const items: ItemFromRow[] = [];
  const problems: string[] = [];
  rows.forEach((row, i) => {
    if (!row.entry) return;
    // unescape does not throw on a malformed part: what it gives back names no catalog entry either.
    const [provider, service, instance] = row.entry.split('|').map((part) => unescape(part));
    if (!(PROVIDERS as readonly string[]).includes(provider) || !catalog.find(provider as Provider, service, instance ?? '')) {
      problems.push(`Item ${i + 1}: choose a service from the list.`);
      return;
    }
    const quantity = formNumber(row.quantity) ?? NaN;
    items.push({ row: i, item: { provider: provider as Provider, service, instance, quantity, hoursPerMonth: formNumber(row.hours), gbPerMonth: formNumber(row.gb) } });
  });
  return { items, problems };
}

/**
 * The item with its amounts as typed where a double may not hold them, as the API reads its body: the schema checked
 * their nearest doubles; money, and the bounds of the digits (744.0000000000000001 hours), come from the digits.
 */
function asTyped(item: EstimateItem, row: EstimatorRow): ExactEstimateItem {
  const typed = <T>(text: string, parsed: T) => (mayHoldInexactNumbers(text) ? new ExactNumber(text.trim()) : parsed);
  return { ...item, quantity: typed(row.quantity, item.quantity), hoursPerMonth: typed(row.hours, item.hoursPerMonth), gbPerMonth: typed(row.gb, item.gbPerMonth) };
}

/** "items[1]" / "items.1.quantity" in a domain message become "Item <row>" of the form. */
function rowMessage(text: string, items: ItemFromRow[]): string {
  const item = (_: string, k: string) => `Item ${(items[Number(k)]?.row ?? Number(k)) + 1}: `;
  return text
    .replace(/items\[(\d+)\]\.?/g, item)
    .replace(/^items\.(\d+)\.?/, item)
    .replace(/:\s+:/, ':');
}

/** Prices the chosen items with the same domain code as POST /api/cost-estimator. */
function priceRows(catalog: Catalog, rows: EstimatorRow[], asked: boolean): Pick<EstimatorView, 'estimate' | 'error' | 'details'> {
  const { items, problems } = itemsFromRows(rows, catalog);
  if (problems.length > 0) return { error: 'Some items could not be priced.', details: problems };
  if (items.length === 0) return { error: asked ? 'Choose at least one service.' : undefined };
  const parsed = estimateRequestSchema.safeParse({ items: items.map((i) => i.item) });
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => rowMessage(`${issue.path.join('.')} ${issue.message}`, items));
    return { error: 'Some items could not be priced.', details };
  }
  try {
    return { estimate: estimateCost(catalog, parsed.data.items.map((item, k) => asTyped(item, rows[items[k].row]))) };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { error: rowMessage(err.message, items) };
  }
}

export function costEstimatorRoutes(pages: SignedInRouter, deps: DashboardDeps): void {
  pages.get('/cost-estimator', (ctx, session) => {
    const rows = readRows(ctx);
    const priced = priceRows(deps.catalog, rows, queryField(ctx, 'estimate') !== '');
    sendHtml(ctx, priced.error ? 400 : 200, costEstimatorPage(session, { catalog: deps.catalog, rows, ...priced }));
  });
}

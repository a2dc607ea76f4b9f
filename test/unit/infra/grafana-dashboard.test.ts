import { readFileSync } from 'node:fs';
import path from 'node:path';
import { metricsRegistry } from '../../../src/infra/metrics';

/** The dashboard compose provisions queries only metrics the platform exports (a renamed metric would leave a panel empty). */
interface Panel {
  title: string;
  targets?: Array<{ expr: string }>;
}
const dashboard = JSON.parse(readFileSync(path.join(__dirname, '../../../deploy/grafana/dashboards/webhook-delivery.json'), 'utf8')) as { panels: Panel[] };

/** The series a PromQL expression reads: identifiers left once label matchers, ranges, `by (...)` and function calls are set aside; a histogram's `_bucket` series under its metric's name. */
function metricsQueried(expr: string): string[] {
  const bare = expr.replace(/\{[^}]*\}|\[[^\]]*\]|\bby\s*\([^)]*\)/g, ' ');
  return [...bare.matchAll(/\b([a-z_][a-z0-9_]*)\b(?!\s*\()/g)].map((m) => (m[1] as string).replace(/_bucket$/, ''));
}

describe('Grafana dashboard', () => {
  const exported = new Set(metricsRegistry.getMetricsAsArray().map((m) => m.name));

  it.each(dashboard.panels.map((p) => [p.title, p] as const))('panel "%s" queries only metrics the platform exports', (_title, panel) => {
    const queried = (panel.targets ?? []).flatMap((t) => metricsQueried(t.expr));
    expect(queried.length).toBeGreaterThan(0);
    for (const name of queried) expect(exported).toContain(name);
  });

  it('shows admission refusals by reason and throttled attempts by limit', () => {
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)).join('\n');
    expect(exprs).toMatch(/sum by \(reason\) \(rate\(webhook_ingest_shed_total/);
    expect(exprs).toMatch(/sum by \(limit\) \(rate\(webhook_attempts_throttled_total/);
  });
});

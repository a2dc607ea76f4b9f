/**
 * The billing period is the calendar month in UTC (CONTRACT §2): `id`,
 * `YYYY-MM`, keys the period's usage records; `end`, the next period's
 * first instant, is `reset_at` of a quota 429.
 */
export function billingPeriodAt(now: Date): { id: string; end: Date } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const end = new Date(Date.UTC(year, month + 1, 1));
  return { id: `${year}-${String(month + 1).padStart(2, '0')}`, end };
}

/** Whole seconds until `until`, at least 1 (Retry-After never says 0). */
export function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

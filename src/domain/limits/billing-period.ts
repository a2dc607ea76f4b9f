/** Shared between calls: never to be changed (its `end` included). */
export interface BillingPeriod {
  readonly id: string;
  readonly end: Date;
}

let last: { start: number; period: BillingPeriod } | undefined;

/**
 * The billing period is the calendar month in UTC (CONTRACT §2): `id`,
 * `YYYY-MM`, keys the period's usage counts; `end`, the next period's
 * first instant, is `reset_at` of a quota 429.
 */
export function billingPeriodAt(now: Date): BillingPeriod {
  const at = now.getTime();
  // Every metered call asks: the period of the last answer is nearly always the one asked for.
  if (last && at >= last.start && at < last.period.end.getTime()) return last.period;
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const period: BillingPeriod = Object.freeze({ id: `${year}-${String(month + 1).padStart(2, '0')}`, end: new Date(Date.UTC(year, month + 1, 1)) });
  last = { start: Date.UTC(year, month, 1), period };
  return period;
}

/** Whole seconds until `until`, at least 1 (Retry-After never says 0). */
export function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

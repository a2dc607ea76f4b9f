/** The billing period is the calendar month in UTC (CONTRACT §2). */
export interface BillingPeriod {
  /** `YYYY-MM`, the key of the period's usage records. */
  id: string;
  /** The next period's first instant: `reset_at` of a quota 429. */
  end: Date;
}

export function billingPeriodAt(now: Date): BillingPeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const end = new Date(Date.UTC(year, month + 1, 1));
  return { id: `${year}-${String(month + 1).padStart(2, '0')}`, end };
}

/** Whole seconds until `until`, at least 1 (Retry-After never says 0). */
export function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

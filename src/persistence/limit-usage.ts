import type { BillingPeriod } from '../domain/limits/billing-period';
import { ExpiringCollection, type ExpiringDoc } from './expiring-collection';

/** `n`: the calls counted in one billing period of a bucket. */
interface UsageDoc extends ExpiringDoc {
  n: number;
}

/** How long a period's count is kept after the period. */
const RETENTION_MS = 90 * 24 * 3600 * 1000;

const usageId = (bucket: string, period: BillingPeriod): string => `${bucket}#${period.id}`;

/** One counter per bucket and billing period, `_id` `<bucket>#<YYYY-MM>`. */
export class LimitUsage extends ExpiringCollection<UsageDoc>('limit_usage') {
  /** Adds `delta` calls (negative: gives them back) to the period's count: the count after. */
  async add(bucket: string, period: BillingPeriod, delta: number): Promise<number> {
    const doc = await this.col.findOneAndUpdate(
      { _id: usageId(bucket, period) },
      { $inc: { n: delta }, $set: { expires_at: new Date(period.end.getTime() + RETENTION_MS) } },
      { upsert: true, returnDocument: 'after' },
    );
    return doc?.n ?? 0;
  }

  async count(bucket: string, period: BillingPeriod): Promise<number> {
    return (await this.col.findOne({ _id: usageId(bucket, period) }, { projection: { n: 1 } }))?.n ?? 0;
  }
}

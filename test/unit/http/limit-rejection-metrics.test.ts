import Koa from 'koa';
import { burstLimitExceeded, type LimitExceededError, quotaExceeded } from '../../../src/domain/errors';
import { LimitAdmitter, LimitRejection, LimitState } from '../../../src/domain/limits/admission';
import { metricsRegistry } from '../../../src/infra/metrics';
import { metered } from '../../../src/transport/http/middleware/metered';

/** Every 429 the limiter produces is counted by kind (burst, quota, anonymous). */
const state: LimitState = { burstLimit: 10, burstRemaining: 0, burstResetAt: new Date('2031-05-10T12:01:00Z'), quotaUsed: 500, quotaLimit: 500 };

async function rejections(): Promise<Record<string, number>> {
  const metric = await metricsRegistry.getSingleMetric('ratelimit_rejections_total')!.get();
  return Object.fromEntries(metric.values.map((v) => [String(v.labels.kind), v.value]));
}

async function refuse(bucket: string, error: LimitExceededError) {
  const limiter = { admitNow: async () => Promise.reject(new LimitRejection(error, state)) } as unknown as LimitAdmitter;
  const ctx = new Koa().createContext({ headers: {}, socket: {} } as never, { getHeader: () => undefined, setHeader: () => undefined } as never);
  await expect(metered(ctx, limiter, { bucket, burstLimit: 10, quotaLimit: 500, countUsage: true }, async () => undefined)).rejects.toBe(error);
}

describe('limiter rejection metrics', () => {
  it('counts burst, quota and anonymous 429s apart', async () => {
    const before = await rejections();
    expect(before).toEqual({ burst: expect.any(Number), quota: expect.any(Number), anonymous: expect.any(Number) });
    await refuse('acct:a', burstLimitExceeded(5));
    await refuse('acct:a', quotaExceeded(500, 500, new Date('2031-06-01T00:00:00Z'), 100));
    await refuse('acct:a', quotaExceeded(500, 500, new Date('2031-06-01T00:00:00Z'), 100));
    await refuse('ip:10.0.0.1', burstLimitExceeded(5));
    const after = await rejections();
    expect({ burst: after.burst - before.burst, quota: after.quota - before.quota, anonymous: after.anonymous - before.anonymous }).toEqual({
      burst: 1,
      quota: 2,
      anonymous: 1,
    });
  });
});

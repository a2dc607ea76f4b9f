import { randomBytes } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { metricsRegistry } from '../../../src/infra/metrics';
import { createDeliveryActivities, THROTTLED, type AttemptInput } from '../../../activities/delivery-activities';
import type { EndpointLimiter } from '../../../activities/endpoint-limiter';
import type { SendResult } from '../../../activities/transport';
import { AttemptSlots } from '../../../src/domain/webhooks/attempt-slots';
import { deliveryId } from '../../../src/domain/webhooks/delivery-id';
import type { EndpointLimits, LimitRefusal } from '../../../src/domain/webhooks/endpoint-limits';
import { createSecretBox } from '../../../src/domain/webhooks/secret-box';
import type { Deliveries } from '../../../src/persistence/deliveries';
import type { EndpointDoc, Endpoints } from '../../../src/persistence/endpoints';
import type { Events } from '../../../src/persistence/events';
import { endpointDoc } from '../../support/endpoint-doc';
import { idleDeliveryDeps } from '../../support/delivery-deps';

const OK: SendResult = { outcome: { kind: 'status', statusCode: 200 }, responseBody: 'ok', error: null, durationMs: 1 };

/** An attempt to an endpoint with its own limits (endpoint-limits.ts): the limiter is a fake that says yes or no. */
describe('delivery attempt: an endpoint with its own limits', () => {
  const secretBox = createSecretBox(randomBytes(32));
  // A retry whose seal is taken as valid: the acceptance check is not what this is about.
  const input: AttemptInput = { eventId: 7, endpointId: 'ep_1', accountId: 'acct_1', round: 1, attempt: 2, type: 'a.b', timestamp: 1, body: '{}', seal: 'sealed' };

  function activities(extra: Partial<EndpointDoc>, answer: LimitRefusal | 'enter') {
    const log: string[] = [];
    const lagged: number[] = [];
    const asked: Array<{ endpointId: string; limits: EndpointLimits }> = [];
    const slots = new AttemptSlots({ perAccount: 1, perEndpoint: 1 });
    const limiter: Pick<EndpointLimiter, 'enter'> = {
      async enter(endpointId, limits) {
        asked.push({ endpointId, limits });
        if (answer !== 'enter') return { refused: answer, waitMs: 1_500 };
        log.push('entered');
        return { leave: async () => void log.push('left') };
      },
    };
    const a = createDeliveryActivities({
      ...idleDeliveryDeps(),
      endpoints: { find: async () => endpointDoc(secretBox.seal('whsec_test'), extra) } as unknown as Endpoints,
      events: { findUnscoped: async () => null } as unknown as Events,
      acceptanceSeal: { verify: () => true, seal: () => 'sealed' },
      deliveries: { find: async () => null, recordAttempt: async () => void log.push('recorded'), setState: async () => undefined } as unknown as Deliveries,
      secretBox,
      sender: {
        async send() {
          log.push('posted');
          return OK;
        },
        close: async () => undefined,
      },
      endpointHealth: { record: async () => ({ consecutive_failures: 0 }) as never },
      autoDisable: { afterMs: 1, disable: async () => undefined },
      slots,
      limiter,
      lags: { record: (_accountId, lagMs) => void lagged.push(lagMs) },
    });
    return { activities: a, attempt: () => a.attemptDelivery(input), log, asked, slots, lagged };
  }

  it('does not ask the limiter for an endpoint without limits', async () => {
    const { attempt, log, asked } = activities({ rate_limit_per_s: null }, 'rate');
    await expect(attempt()).resolves.toMatchObject({ status: 'succeeded' });
    expect(asked).toEqual([]);
    expect(log).toEqual(['posted', 'recorded']);
  });

  it("asks the limiter with the endpoint's limits, posts within them and leaves them when the POST has ended, before recording", async () => {
    const { attempt, log, asked } = activities({ rate_limit_per_s: 5, max_in_flight: 2 }, 'enter');
    await expect(attempt()).resolves.toMatchObject({ status: 'succeeded' });
    expect(asked).toEqual([{ endpointId: 'ep_1', limits: { ratePerSecond: 5, maxInFlight: 2 } }]);
    expect(log).toEqual(['entered', 'posted', 'left', 'recorded']);
  });

  it.each<LimitRefusal>(['rate', 'in-flight'])(
    'throttles an attempt over the endpoint\'s %s limit (retryable AttemptThrottled with the wait the limiter gave), having posted and recorded nothing, and frees its place in the process',
    async (refusal) => {
      const { attempt, log, slots } = activities({ rate_limit_per_s: 5, max_in_flight: 2 }, refusal);
      const throttled = await attempt().catch((err: unknown) => err);
      expect(throttled).toMatchObject({ type: THROTTLED, nonRetryable: false });
      expect((throttled as { message: string }).message).toContain(refusal === 'rate' ? 'rate_limit_per_s' : 'max_in_flight');
      expect((throttled as { nextRetryDelay?: number }).nextRetryDelay).toBe(1_500);
      expect(log).toEqual([]);
      expect(slots.inFlight('acct_1')).toBe(0);
    },
  );

  it('counts an attempt over its endpoint\'s own limits in webhook_attempts_throttled_total{limit="endpoint_limits"}', async () => {
    const count = async () => (await metricsRegistry.getSingleMetric('webhook_attempts_throttled_total')!.get()).values.find((v) => v.labels.limit === 'endpoint_limits')!.value;
    const before = await count();
    await activities({ rate_limit_per_s: 5 }, 'rate').attempt().catch(() => undefined);
    expect((await count()) - before).toBe(1);
  });

  describe("the account's first-attempt lag (what admission reads)", () => {
    const first: AttemptInput = { ...input, attempt: 1, acceptedAt: Date.now() - 10_000 };
    /** As the worker runs it: Temporal's try `tries` of the delivery's own run. */
    const asTry = (tries: number) =>
      new MockActivityEnvironment({ attempt: tries, workflowExecution: { workflowId: deliveryId(first.eventId, first.endpointId), runId: 'run-1' } });

    it("counts a limited endpoint's first attempt on its first try", async () => {
      const { activities: a, lagged } = activities({ rate_limit_per_s: 5 }, 'enter');
      await asTry(1).run(a.attemptDelivery, first);
      expect(lagged).toHaveLength(1);
    });

    it("does not count a limited endpoint's first attempt tried again: it may have waited for the endpoint's own limits", async () => {
      const { activities: a, lagged, log } = activities({ rate_limit_per_s: 5 }, 'enter');
      await asTry(3).run(a.attemptDelivery, first);
      expect(log).toContain('posted');
      expect(lagged).toEqual([]);
    });

    it("still counts an unlimited endpoint's first attempt tried again", async () => {
      const { activities: a, lagged } = activities({}, 'enter');
      await asTry(3).run(a.attemptDelivery, first);
      expect(lagged).toHaveLength(1);
    });
  });
});

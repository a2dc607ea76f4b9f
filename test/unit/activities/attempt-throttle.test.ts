import { randomBytes } from 'node:crypto';
import { createDeliveryActivities, THROTTLED, type AttemptInput } from '../../../activities/delivery-activities';
import { AttemptSlots } from '../../../src/domain/webhooks/attempt-slots';
import { metricsRegistry } from '../../../src/infra/metrics';
import type { SendResult } from '../../../activities/transport';
import { createSecretBox } from '../../../src/domain/webhooks/secret-box';
import type { Deliveries } from '../../../src/persistence/deliveries';
import type { Endpoints } from '../../../src/persistence/endpoints';
import type { Events } from '../../../src/persistence/events';
import { endpointDoc } from '../../support/endpoint-doc';
import { idleDeliveryDeps } from '../../support/delivery-deps';

const OK: SendResult = { outcome: { kind: 'status', statusCode: 200 }, responseBody: 'ok', error: null, durationMs: 1 };

/**
 * Fairness (delivery.md "Fairness"): an account holds at most its bound of attempts in flight in a
 * process. The sender here holds every POST to a hanging URL until the test lets it go, like a
 * receiver that never answers.
 */
describe('delivery attempt: what one account holds at once', () => {
  const secretBox = createSecretBox(randomBytes(32));
  // A retry (attempt 2) whose seal is taken as valid: the acceptance check is not what this is about.
  const input = (accountId: string, endpointId: string): AttemptInput => ({ eventId: 7, endpointId, accountId, round: 1, attempt: 2, type: 'a.b', timestamp: 1, body: '{}', seal: 'sealed' });

  function activities(now: () => number = Date.now) {
    const sent: string[] = [];
    const recorded: string[] = [];
    const hanging: Array<() => void> = [];
    const a = createDeliveryActivities({
      ...idleDeliveryDeps(),
      endpoints: { find: async (accountId: string, id: string) => ({ ...endpointDoc(secretBox.seal('whsec_test')), _id: id, account_id: accountId, url: `https://${accountId}.test/${id}` }) } as unknown as Endpoints,
      events: { findUnscoped: async () => null } as unknown as Events,
      acceptanceSeal: { verify: () => true, seal: () => 'sealed' },
      deliveries: { find: async () => null, recordAttempt: async (ref: { endpoint_id: string }) => void recorded.push(ref.endpoint_id), setState: async () => undefined } as unknown as Deliveries,
      secretBox,
      sender: {
        async send(req) {
          sent.push(req.url);
          if (req.url.startsWith('https://acct_a.')) await new Promise<void>((resolve) => hanging.push(resolve));
          return OK;
        },
        close: async () => undefined,
      },
      endpointHealth: { record: async () => ({ consecutive_failures: 0 }) as never },
      autoDisable: { afterMs: 1, disable: async () => undefined },
      slots: new AttemptSlots({ perAccount: 2, perEndpoint: 2 }, now),
    });
    return { attempt: (i: AttemptInput) => a.attemptDelivery(i), sent, recorded, hanging };
  }

  it("runs another account's attempt while one account's attempts hang", async () => {
    const { attempt, sent, hanging } = activities();
    void attempt(input('acct_a', 'ep_1'));
    void attempt(input('acct_a', 'ep_2'));
    await until(() => sent.length === 2);
    await expect(attempt(input('acct_b', 'ep_9'))).resolves.toMatchObject({ status: 'succeeded' });
    expect(sent).toEqual(['https://acct_a.test/ep_1', 'https://acct_a.test/ep_2', 'https://acct_b.test/ep_9']);
    hanging.splice(0).forEach((release) => release());
  });

  it('fails an attempt that finds no place within its short wait as retryable AttemptThrottled with a delay of its own, having posted and recorded nothing', async () => {
    const { attempt, sent, recorded, hanging } = activities();
    void attempt(input('acct_a', 'ep_1'));
    void attempt(input('acct_a', 'ep_2'));
    await until(() => sent.length === 2);
    const throttled = await attempt(input('acct_a', 'ep_3')).catch((err: unknown) => err);
    expect(throttled).toMatchObject({ type: THROTTLED, nonRetryable: false });
    expect((throttled as { nextRetryDelay?: number }).nextRetryDelay).toBeGreaterThanOrEqual(500);
    expect(sent).toHaveLength(2);
    expect(recorded).toEqual([]);
    hanging.splice(0).forEach((release) => release());
  });

  it('counts each throttled attempt in webhook_attempts_throttled_total under the limit it met', async () => {
    const { attempt, sent, hanging } = activities();
    const before = await throttles();
    void attempt(input('acct_a', 'ep_1'));
    void attempt(input('acct_a', 'ep_2'));
    await until(() => sent.length === 2);
    await attempt(input('acct_a', 'ep_3')).catch(() => undefined);
    await attempt(input('acct_a', 'ep_4')).catch(() => undefined);
    const after = await throttles();
    expect({ places: after.places - before.places, endpoint_limits: after.endpoint_limits - before.endpoint_limits }).toEqual({ places: 2, endpoint_limits: 0 });
    hanging.splice(0).forEach((release) => release());
  });

  it("tells a throttled attempt to come back once the account's attempts throttled before it can have been served", async () => {
    const clock = { now: 0 };
    const { attempt, sent, hanging } = activities(() => clock.now);
    // Both places taken for a minute, and two freed in it (each taken again at once): one turn every 30 s.
    const done = [attempt(input('acct_a', 'ep_1')), attempt(input('acct_a', 'ep_2'))];
    await until(() => sent.length === 2);
    for (const [at, endpoint] of [[30_000, 'ep_1'], [60_000, 'ep_2']] as const) {
      clock.now = at;
      hanging.shift()!();
      await done.shift();
      done.push(attempt(input('acct_a', endpoint)));
      await until(() => sent.length === (at === 30_000 ? 3 : 4));
    }
    const delays: number[] = [];
    for (const endpoint of ['ep_3', 'ep_4', 'ep_5', 'ep_6']) {
      const throttled = await attempt(input('acct_a', endpoint)).catch((err: unknown) => err);
      delays.push((throttled as { nextRetryDelay: number }).nextRetryDelay);
    }
    // The fourth has three ahead of it: 90 s, of which a random half to all.
    expect(delays[3]).toBeGreaterThanOrEqual(45_000);
    expect(delays[3]).toBeLessThanOrEqual(90_000);
    hanging.splice(0).forEach((release) => release());
  });

  it('gives a freed place to the next attempt of the account', async () => {
    const { attempt, sent, hanging } = activities();
    const first = attempt(input('acct_a', 'ep_1'));
    void attempt(input('acct_a', 'ep_2'));
    await until(() => sent.length === 2);
    hanging.shift()!();
    await first;
    const third = attempt(input('acct_a', 'ep_3'));
    await until(() => sent.length === 3);
    hanging.splice(0).forEach((release) => release());
    await expect(third).resolves.toMatchObject({ status: 'succeeded' });
  });
});

async function throttles(): Promise<Record<string, number>> {
  const metric = await metricsRegistry.getSingleMetric('webhook_attempts_throttled_total')!.get();
  return Object.fromEntries(metric.values.map((v) => [String(v.labels.limit), v.value]));
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

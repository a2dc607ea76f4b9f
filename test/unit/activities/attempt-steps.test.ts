import { randomBytes } from 'node:crypto';
import { AttemptHandOffs } from '../../../activities/attempt-hand-off';
import { createDeliveryActivities, THROTTLED, type AttemptInput, type DeliveryActivityDeps } from '../../../activities/delivery-activities';
import type { SendResult, Transport } from '../../../activities/transport';
import { createSecretBox } from '../../../src/domain/webhooks/secret-box';
import type { Deliveries, DeliveryDoc } from '../../../src/persistence/deliveries';
import type { EndpointDoc, Endpoints } from '../../../src/persistence/endpoints';
import type { Events } from '../../../src/persistence/events';
import { deliveryDoc } from '../../support/delivery-doc';
import { endpointDoc } from '../../support/endpoint-doc';
import { idleDeliveryDeps } from '../../support/delivery-deps';

const answered = (statusCode: number): SendResult => ({ outcome: { kind: 'status', statusCode }, responseBody: 'the receiver said so', error: null, durationMs: 12 });

/**
 * Each attempt's result carries its steps, gate → send → settle (attempt-steps.ts), for people reading
 * the run in the Temporal Web UI: one case per answer of the gate, through the real activity over
 * fakes of the store and the transport. Nothing in them is a URL, a header, a body or a secret.
 */
describe('delivery attempt: its steps, as its result shows them', () => {
  const secretBox = createSecretBox(randomBytes(32));
  const endpoint = endpointDoc(secretBox.seal('whsec_test'));
  const event = { _id: 7, account_id: 'acct_1', endpoint_ids: ['ep_1'], type: 'a.b', timestamp: 1, body: '{"secret":"body"}' };
  // A retry whose seal is taken as valid, unless a case says otherwise.
  const input: AttemptInput = { eventId: 7, endpointId: 'ep_1', accountId: 'acct_1', round: 1, attempt: 2, type: 'a.b', timestamp: 1, body: event.body, seal: 'sealed', pausable: true };

  function activities(options: { endpoint?: EndpointDoc; answer?: SendResult; record?: DeliveryDoc; deps?: Partial<DeliveryActivityDeps>; sender?: Transport } = {}) {
    const sent: string[] = [];
    const a = createDeliveryActivities({
      ...idleDeliveryDeps(),
      endpoints: { find: async () => options.endpoint ?? endpoint } as unknown as Endpoints,
      events: { findUnscoped: async () => null } as unknown as Events,
      acceptanceSeal: { verify: (_sealed, seal) => seal === 'sealed', seal: () => 'sealed' },
      deliveries: { find: async () => options.record ?? null, recordAttempt: async () => undefined, setState: async () => undefined, markPaused: async () => undefined } as unknown as Deliveries,
      secretBox,
      sender: options.sender ?? { send: async (m) => (sent.push(m.url), options.answer ?? answered(200)), close: async () => undefined },
      endpointHealth: { record: async () => ({ consecutive_failures: 0, failing_since: null }) as never },
      autoDisable: { afterMs: 1, disable: async () => undefined },
      ...options.deps,
    });
    return { attempt: (i: AttemptInput = input) => a.attemptDelivery(i), sent };
  }

  /** What an attempt that throws tells Temporal: its failure's type and the details it carries. */
  const failureOf = (attempt: Promise<unknown>) =>
    attempt.then(
      (outcome) => ({ answered: outcome }),
      (err: { type?: string; details?: unknown[] }) => ({ type: err.type, details: err.details }),
    );

  it('send: the transport, what the receiver answered and how long it took; settle: the status recorded and when the next attempt comes', async () => {
    const { attempt } = activities({ answer: answered(500) });
    const outcome = await attempt();
    expect(outcome).toEqual({
      status: 'retrying',
      nextDelayMs: 5_000,
      statusCode: 500,
      steps: { gate: 'send', send: { transport: 'https', result: 'HTTP 500', ms: 12 }, settle: { recorded: 'retrying', nextAttemptInMs: 5_000 } },
    });
    // Gate, send, settle, in that order as the history's JSON shows them.
    expect(Object.keys((outcome as { steps: object }).steps)).toEqual(['gate', 'send', 'settle']);
    const shown = JSON.stringify(outcome);
    for (const hidden of [endpoint.url, 'hooks.example.com', 'the receiver said so', 'whsec_test', event.body]) expect(shown).not.toContain(hidden);
  });

  it('send: a success ends the delivery, no next attempt', async () => {
    await expect(activities().attempt()).resolves.toEqual({
      status: 'succeeded',
      nextDelayMs: null,
      statusCode: 200,
      steps: { gate: 'send', send: { transport: 'https', result: 'HTTP 200', ms: 12 }, settle: { recorded: 'succeeded' } },
    });
  });

  it('send: a failure without an answer shows its kind, not its text', async () => {
    const { attempt } = activities({ answer: { outcome: { kind: 'timeout' }, responseBody: null, error: 'Timed out at https://hooks.example.com/in', durationMs: 30_000 } });
    const outcome = await attempt();
    expect(outcome).toMatchObject({ steps: { send: { transport: 'https', result: 'timeout', ms: 30_000 } } });
    expect(JSON.stringify(outcome)).not.toContain('hooks.example.com');
  });

  it("send: a broker endpoint's transport is its type, its confirmation `confirmed`; no queue URL or credential shown", async () => {
    const credentials = { access_key_id: 'AKIAEXAMPLEKEY', secret_access_key: 'very-secret-access-key' };
    const queueUrl = 'https://sqs.eu-west-1.amazonaws.com/123456789012/orders';
    const sqs: EndpointDoc = {
      ...endpoint,
      url: 'sqs://eu-west-1/orders',
      destination: { type: 'sqs', config: { queue_url: queueUrl, region: 'eu-west-1' }, credentials_sealed: secretBox.seal(JSON.stringify(credentials)), credential_fields: Object.keys(credentials) },
    };
    const { attempt } = activities({ endpoint: sqs, answer: { outcome: { kind: 'confirmed' }, responseBody: null, error: null, durationMs: 3 } });
    const outcome = await attempt();
    expect(outcome).toMatchObject({ status: 'succeeded', steps: { gate: 'send', send: { transport: 'sqs', result: 'confirmed', ms: 3 }, settle: { recorded: 'succeeded' } } });
    for (const hidden of [queueUrl, credentials.access_key_id, credentials.secret_access_key]) expect(JSON.stringify(outcome)).not.toContain(hidden);
  });

  it("settle: the last attempt's failure that disables the endpoint says so", async () => {
    const failingSince = new Date(Date.now() - 10 * 24 * 3_600_000);
    const disabled: string[] = [];
    const { attempt } = activities({
      answer: answered(503),
      deps: {
        endpointHealth: { record: async () => ({ consecutive_failures: 40, failing_since: failingSince }) as never },
        autoDisable: { afterMs: 1, disable: async (_account, endpointId) => void disabled.push(endpointId) },
      },
    });
    await expect(attempt({ ...input, attempt: 8 })).resolves.toEqual({
      status: 'failed',
      nextDelayMs: null,
      statusCode: 503,
      steps: { gate: 'send', send: { transport: 'https', result: 'HTTP 503', ms: 12 }, settle: { recorded: 'failed', endpointDisabled: true } },
    });
    expect(disabled).toEqual(['ep_1']);
  });

  it('settle: a FIFO delivery that ended says it left its place', async () => {
    const left: number[] = [];
    const { attempt } = activities({
      endpoint: { ...endpoint, ordering: 'fifo' },
      deps: { fifo: { turnOf: async () => ({ place: 4, now: true }), leave: async (eventId) => void left.push(eventId) } },
    });
    await expect(attempt()).resolves.toMatchObject({ steps: { settle: { recorded: 'succeeded', leftFifoQueue: true } } });
    expect(left).toEqual([7]);
  });

  it('recorded: made before, answered from its record, nothing sent', async () => {
    const record = deliveryDoc([{ round: 1, attempt: 2, started_at: new Date(1000), duration_ms: 5, status_code: 500, error: 'Destination answered HTTP 500.', response_body: '', succeeded: false }]);
    const { attempt, sent } = activities({ record });
    await expect(attempt({ ...input, mayRepeat: true })).resolves.toEqual({
      status: 'retrying',
      nextDelayMs: 5_000,
      statusCode: 500,
      steps: { gate: 'recorded', settle: { recorded: 'retrying', nextAttemptInMs: 5_000 } },
    });
    expect(sent).toEqual([]);
  });

  it('not-accepted: the failure Temporal records carries the steps in its details', async () => {
    const { attempt, sent } = activities();
    await expect(failureOf(attempt({ ...input, seal: 'forged' }))).resolves.toEqual({ type: 'DeliveryNotAccepted', details: [{ gate: 'not-accepted' }] });
    expect(sent).toEqual([]);
  });

  it('paused: nothing sent or recorded, the gate alone', async () => {
    const { attempt, sent } = activities({ endpoint: { ...endpoint, paused: true } });
    await expect(attempt()).resolves.toEqual({ status: 'paused', nextDelayMs: null, statusCode: null, steps: { gate: 'paused' } });
    expect(sent).toEqual([]);
  });

  it('queued: a FIFO first attempt before its turn, the gate alone', async () => {
    const { attempt, sent } = activities({
      endpoint: { ...endpoint, ordering: 'fifo' },
      deps: { fifo: { turnOf: async () => ({ place: 4, now: false }), leave: async () => undefined } },
    });
    await expect(attempt({ ...input, attempt: 1, queued: true })).resolves.toEqual({ status: 'queued', nextDelayMs: null, statusCode: null, steps: { gate: 'queued' } });
    expect(sent).toEqual([]);
  });

  it('cancelled: the endpoint is disabled, the round recorded cancelled', async () => {
    const { attempt, sent } = activities({ endpoint: { ...endpoint, disabled: true, disabled_reason: 'manual' } });
    await expect(attempt()).resolves.toEqual({ status: 'cancelled', nextDelayMs: null, statusCode: null, steps: { gate: 'cancelled', settle: { recorded: 'cancelled' } } });
    expect(sent).toEqual([]);
  });

  it('throttled: the failure Temporal retries on a timer carries the steps in its details', async () => {
    const { attempt, sent } = activities({
      endpoint: { ...endpoint, rate_limit_per_s: 1 },
      deps: { limiter: { enter: async () => ({ refused: 'rate', waitMs: 700 }) } },
    });
    await expect(failureOf(attempt())).resolves.toEqual({ type: THROTTLED, details: [{ gate: 'throttled' }] });
    expect(sent).toEqual([]);
  });

  it("unsendable: this worker cannot open the endpoint's secret, a failed attempt recorded, nothing sent", async () => {
    const { attempt, sent } = activities({ endpoint: endpointDoc(createSecretBox(randomBytes(32)).seal('whsec_other')) });
    await expect(attempt()).resolves.toEqual({
      status: 'retrying',
      nextDelayMs: 5_000,
      statusCode: null,
      steps: { gate: 'unsendable', settle: { recorded: 'retrying', nextAttemptInMs: 5_000 } },
    });
    expect(sent).toEqual([]);
  });

  describe('a local first attempt handed off', () => {
    const first: AttemptInput = { ...input, attempt: 1, handOffAfterMs: 5 };

    it('shows how far it had got, and its whole steps come with the outcome it reports', async () => {
      const told: unknown[] = [];
      const handOffs = new AttemptHandOffs(async (_run, reported) => void told.push(reported));
      let answer!: () => void;
      const receiverAnswers = new Promise<void>((resolve) => (answer = resolve));
      const { attempt } = activities({ deps: { handOffs }, sender: { send: async () => receiverAnswers.then(() => answered(200)), close: async () => undefined } });
      await expect(attempt(first)).resolves.toEqual({ status: 'handed-off', steps: { gate: 'send', handedOffDuring: 'post' } });
      answer();
      await handOffs.settled();
      expect(told).toEqual([
        { round: 1, attempt: 1, outcome: { status: 'succeeded', nextDelayMs: null, statusCode: 200, steps: { gate: 'send', send: { transport: 'https', result: 'HTTP 200', ms: 12 }, settle: { recorded: 'succeeded' } } } },
      ]);
    });

    it('before the gate has answered: no gate shown', async () => {
      let release!: () => void;
      const storeAnswers = new Promise<void>((resolve) => (release = resolve));
      const { attempt } = activities({ deps: { enabledEndpoints: () => storeAnswers.then(() => []) } });
      try {
        await expect(attempt(first)).resolves.toEqual({ status: 'handed-off', steps: { handedOffDuring: 'store' } });
      } finally {
        release();
      }
    });
  });
});

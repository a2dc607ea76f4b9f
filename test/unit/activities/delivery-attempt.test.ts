import { randomBytes } from 'node:crypto';
import { AttemptHandOffs } from '../../../activities/attempt-hand-off';
import { AttemptHolds } from '../../../activities/attempt-holds';
import { createDeliveryActivities, type AttemptInput, type DeliveryActivityDeps } from '../../../activities/delivery-activities';
import { createAcceptanceSeal } from '../../../src/domain/webhooks/acceptance-seal';
import { createSecretBox } from '../../../src/domain/webhooks/secret-box';
import { metricsRegistry } from '../../../src/infra/metrics';
import type { Deliveries, DeliveryDoc } from '../../../src/persistence/deliveries';
import type { Endpoints } from '../../../src/persistence/endpoints';
import type { Events } from '../../../src/persistence/events';
import { deliveryDoc } from '../../support/delivery-doc';
import { endpointDoc } from '../../support/endpoint-doc';
import { fakeDeliveryActivities } from '../../support/fake-delivery-activities';
import { idleDeliveryDeps } from '../../support/delivery-deps';

/**
 * An attempt that may have been made before (a later attempt, or a workflow task that is itself
 * a retry after its worker died) checks its record before posting; the run's first attempt does not
 * read it. Fakes for the store and the sender: the real ones are covered by the integration tests.
 */
describe('delivery attempt: made at most once per record', () => {
  const secretBox = createSecretBox(randomBytes(32));
  const endpoint = endpointDoc(secretBox.seal('whsec_test'));
  const input: AttemptInput = { eventId: 7, endpointId: 'ep_1', accountId: 'acct_1', round: 1, attempt: 1, type: 'a.b', timestamp: 1, body: '{}' };
  const recorded = deliveryDoc([{ round: 1, attempt: 1, started_at: new Date(1000), duration_ms: 5, status_code: 200, error: null, response_body: 'ok', succeeded: true }]);

  const accepted = { _id: 7, account_id: 'acct_1', endpoint_ids: ['ep_1'], type: 'a.b', timestamp: 1, body: '{}' };

  function activities(record: DeliveryDoc | null, event: Partial<typeof accepted> | null = accepted) {
    const sent: string[] = [];
    const reads: string[] = [];
    const deliveries = {
      async find(id: string) {
        reads.push(id);
        return record;
      },
      async recordAttempt() {},
      async setState() {},
    };
    const a = fakeDeliveryActivities({ secretBox, findEndpoint: async () => endpoint, event, deliveries, onSend: (url) => sent.push(url) });
    return { a, sent, reads };
  }

  it("posts a run's first attempt without reading its record", async () => {
    const { a, sent, reads } = activities(null);
    await expect(a.attemptDelivery({ ...input, mayRepeat: false })).resolves.toMatchObject({ status: 'succeeded', nextDelayMs: null, statusCode: 200 });
    expect(sent).toEqual([endpoint.url]);
    expect(reads).toEqual([]);
  });

  it('answers an attempt that may repeat, and is recorded, from its record without posting again', async () => {
    const { a, sent, reads } = activities(recorded);
    await expect(a.attemptDelivery({ ...input, mayRepeat: true })).resolves.toMatchObject({ status: 'succeeded', nextDelayMs: null, statusCode: 200 });
    expect(reads).toEqual([recorded._id]);
    expect(sent).toEqual([]);
  });

  it('posts an attempt that may repeat when nothing of it was recorded', async () => {
    const { a, sent } = activities({ ...recorded, attempts: [] });
    await a.attemptDelivery({ ...input, mayRepeat: true });
    expect(sent).toEqual([endpoint.url]);
  });
});

describe('delivery attempt: only what the platform accepted is signed', () => {
  const secretBox = createSecretBox(randomBytes(32));
  const endpoint = { _id: 'ep_1', account_id: 'acct_1', url: 'https://hooks.example.com/in', events: ['*'], description: '', secret_sealed: secretBox.seal('whsec_test'), disabled: false, created_at: new Date(0), updated_at: new Date(0) };
  const input: AttemptInput = { eventId: 7, endpointId: 'ep_1', accountId: 'acct_1', round: 1, attempt: 1, type: 'a.b', timestamp: 1, body: '{"id":7}' };
  const event = { _id: 7, account_id: 'acct_1', endpoint_ids: ['ep_1'], type: 'a.b', timestamp: 1, body: '{"id":7}' };

  function attemptWith(stored: object | null) {
    const sent: string[] = [];
    const a = createDeliveryActivities({
      ...idleDeliveryDeps(),
      endpoints: { find: async () => endpoint } as unknown as Endpoints,
      events: { findUnscoped: async () => stored } as unknown as Events,
      deliveries: { find: async () => null, recordAttempt: async () => undefined, setState: async () => undefined } as unknown as Deliveries,
      secretBox,
      sender: { send: async (req) => (sent.push(req.url), { outcome: { kind: 'status', statusCode: 200 }, responseBody: 'ok', error: null, durationMs: 1 }), close: async () => undefined },
      endpointHealth: { record: async () => ({ consecutive_failures: 0 }) as never },
      autoDisable: { afterMs: 1, disable: async () => undefined },
    });
    return { attempt: (i: AttemptInput) => a.attemptDelivery(i), sent };
  }

  it.each([
    ['an event that does not exist', null],
    ["another account's event", { ...event, account_id: 'acct_2' }],
    ['an event not matched to this endpoint', { ...event, endpoint_ids: ['ep_9'] }],
    ['a body other than the one accepted', { ...event, body: '{"id":7,"forged":true}' }],
  ])('refuses %s, non-retryably, and posts nothing', async (_name, stored) => {
    const { attempt, sent } = attemptWith(stored);
    await expect(attempt(input)).rejects.toMatchObject({ type: 'DeliveryNotAccepted', nonRetryable: true });
    expect(sent).toEqual([]);
  });

  it('checks a later attempt as it checks the first: a body other than the one accepted is refused on attempt 2', async () => {
    const { attempt, sent } = attemptWith({ ...event, body: '{"id":7,"forged":true}' });
    await expect(attempt({ ...input, attempt: 2 })).rejects.toMatchObject({ type: 'DeliveryNotAccepted', nonRetryable: true });
    expect(sent).toEqual([]);
  });

  it('posts the event it accepted', async () => {
    const { attempt, sent } = attemptWith(event);
    await expect(attempt(input)).resolves.toMatchObject({ status: 'succeeded', nextDelayMs: null, statusCode: 200 });
    expect(sent).toEqual([endpoint.url]);
  });
});

describe('delivery attempt: a sealed input and a cached endpoint need no read', () => {
  const secretBox = createSecretBox(randomBytes(32));
  const acceptanceSeal = createAcceptanceSeal(randomBytes(32));
  const endpoint = endpointDoc(secretBox.seal('whsec_test'));
  const event = { _id: 7, account_id: 'acct_1', endpoint_ids: ['ep_1'], type: 'a.b', timestamp: 1, body: '{"id":7}' };
  const unsealed: AttemptInput = { eventId: 7, endpointId: 'ep_1', accountId: 'acct_1', round: 1, attempt: 1, type: 'a.b', timestamp: 1, body: '{"id":7}' };
  const sealed: AttemptInput = { ...unsealed, seal: acceptanceSeal.seal({ ...unsealed, workflowId: 'delivery-7-ep_1', type: 'a.b', timestamp: 1, body: '{"id":7}' }) };

  function attemptWith(options: { stored?: object | null; cached?: Array<typeof endpoint>; fifo?: DeliveryActivityDeps['fifo'] } = {}) {
    const sent: string[] = [];
    const reads: string[] = [];
    const a = createDeliveryActivities({
      ...idleDeliveryDeps(),
      ...(options.fifo && { fifo: options.fifo }),
      endpoints: { find: async () => (reads.push('endpoint'), endpoint) } as unknown as Endpoints,
      events: { findUnscoped: async () => (reads.push('event'), options.stored === undefined ? event : options.stored) } as unknown as Events,
      deliveries: { find: async () => null, recordAttempt: async () => undefined, setState: async () => undefined } as unknown as Deliveries,
      secretBox,
      acceptanceSeal,
      ...(options.cached ? { enabledEndpoints: async () => options.cached! } : {}),
      sender: { send: async (req) => (sent.push(req.url), { outcome: { kind: 'status', statusCode: 200 }, responseBody: 'ok', error: null, durationMs: 1 }), close: async () => undefined },
      endpointHealth: { record: async () => ({ consecutive_failures: 0 }) as never },
      autoDisable: { afterMs: 1, disable: async () => undefined },
    });
    return { attempt: (i: AttemptInput) => a.attemptDelivery(i), sent, reads };
  }

  it('posts a sealed first attempt to a cached endpoint without reading the store', async () => {
    const { attempt, sent, reads } = attemptWith({ cached: [endpoint] });
    await expect(attempt(sealed)).resolves.toMatchObject({ status: 'succeeded' });
    expect(sent).toEqual([endpoint.url]);
    expect(reads).toEqual([]);
  });

  it('reads the event of an unsealed input, and refuses it when the store does not hold it', async () => {
    const { attempt, sent, reads } = attemptWith({ stored: null, cached: [endpoint] });
    await expect(attempt(unsealed)).rejects.toMatchObject({ type: 'DeliveryNotAccepted', nonRetryable: true });
    expect(reads).toEqual(['event']);
    expect(sent).toEqual([]);
  });

  it('checks a seal that does not match against the store: a forged body is refused', async () => {
    const { attempt, sent, reads } = attemptWith({ cached: [endpoint] });
    await expect(attempt({ ...sealed, body: '{"id":7,"forged":true}' })).rejects.toMatchObject({ type: 'DeliveryNotAccepted' });
    expect(reads).toEqual(['event']);
    expect(sent).toEqual([]);
  });

  it('posts a sealed later attempt without reading the store', async () => {
    const { attempt, sent, reads } = attemptWith({ cached: [endpoint] });
    await expect(attempt({ ...sealed, attempt: 2 })).resolves.toMatchObject({ status: 'succeeded' });
    expect(sent).toEqual([endpoint.url]);
    expect(reads).toEqual([]);
  });

  it('checks a seal made for another round against the store', async () => {
    const { attempt, reads } = attemptWith({ cached: [endpoint] });
    await expect(attempt({ ...sealed, round: 2 })).resolves.toMatchObject({ status: 'succeeded' });
    expect(reads).toEqual(['event']);
  });

  describe('a FIFO first attempt', () => {
    const fifoEndpoint = { ...endpoint, ordering: 'fifo' as const };
    const place = { n: 4, head: 4 };
    const queued: AttemptInput = { ...unsealed, queued: true, acceptedAt: 1, fifoPlace: place };
    const sealedQueued: AttemptInput = { ...queued, seal: acceptanceSeal.seal({ ...queued, workflowId: 'delivery-7-ep_1' }) };
    const turns = () => {
      const asked: unknown[] = [];
      return { asked, fifo: { turnOf: async (_e: number, _ep: string, taken?: unknown) => (asked.push(taken), { place: 4, now: true }), leave: async () => undefined } };
    };

    it('gives its turn the place sealed with its input', async () => {
      const { asked, fifo } = turns();
      const { attempt, reads } = attemptWith({ cached: [fifoEndpoint], fifo });
      await expect(attempt(sealedQueued)).resolves.toMatchObject({ status: 'succeeded' });
      expect(asked).toEqual([place]);
      expect(reads).toEqual([]);
    });

    it('does not take a place the seal does not cover: its turn reads it', async () => {
      const { asked, fifo } = turns();
      const { attempt, reads } = attemptWith({ cached: [fifoEndpoint], fifo });
      await expect(attempt({ ...sealedQueued, fifoPlace: { n: 4, head: 9 } })).resolves.toMatchObject({ status: 'succeeded' });
      expect(asked).toEqual([undefined]);
      expect(reads).toEqual(['event']);
    });
  });

  it('reads an endpoint the cache does not list (disabled, deleted or too new)', async () => {
    const { attempt, sent, reads } = attemptWith({ cached: [] });
    await expect(attempt(sealed)).resolves.toMatchObject({ status: 'succeeded' });
    expect(reads).toEqual(['endpoint']);
    expect(sent).toEqual([endpoint.url]);
  });
});

/**
 * An operator sees why first attempts are handed off (webhook_attempt_hand_offs_total): a slow
 * receiver (`post`) is expected; a slow store or a wait for a place points at the platform itself.
 */
describe('delivery attempt: a hand-off is counted by what the attempt was waiting for', () => {
  const secretBox = createSecretBox(randomBytes(32));
  const endpoint = endpointDoc(secretBox.seal('whsec_test'));
  const input: AttemptInput = { eventId: 7, endpointId: 'ep_1', accountId: 'acct_1', round: 1, attempt: 1, type: 'a.b', timestamp: 1, body: '{}', handOffAfterMs: 5 };
  /** An attempt held in `stage` until `release` (the store's endpoint read, or the receiver). */
  function attemptWaitingOn(stage: 'store' | 'post', handOffs = new AttemptHandOffs(async () => undefined)) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const answered = { outcome: { kind: 'status', statusCode: 200 }, responseBody: 'ok', error: null, durationMs: 1 } as const;
    const activities = createDeliveryActivities({
      ...idleDeliveryDeps(),
      endpoints: { find: async () => (stage === 'store' ? held.then(() => endpoint) : endpoint) } as unknown as Endpoints,
      events: { findUnscoped: async () => ({ _id: 7, account_id: 'acct_1', endpoint_ids: ['ep_1'], type: 'a.b', timestamp: 1, body: '{}' }) } as unknown as Events,
      deliveries: { find: async () => null, recordAttempt: async () => undefined, setState: async () => undefined } as unknown as Deliveries,
      secretBox,
      handOffs,
      sender: { send: async () => held.then(() => answered), close: async () => undefined },
      endpointHealth: { record: async () => ({ consecutive_failures: 0 }) as never },
      autoDisable: { afterMs: 1, disable: async () => undefined },
    });
    return { activities, release };
  }

  async function handOffs(stage: string): Promise<number> {
    const metric = await metricsRegistry.getSingleMetric('webhook_attempt_hand_offs_total')!.get();
    return metric.values.find((v) => v.labels.stage === stage)?.value ?? 0;
  }

  it.each(['post', 'store'] as const)('counts an attempt still in its %s stage at the end of its budget under that stage', async (stage) => {
    const before = await handOffs(stage);
    const { activities, release } = attemptWaitingOn(stage);
    try {
      await expect(activities.attemptDelivery(input)).resolves.toMatchObject({ status: 'handed-off' });
      expect(await handOffs(stage)).toBe(before + 1);
    } finally {
      release();
    }
  });

  it('reports a handed-off POST to its workflow, with its outcome once recorded', async () => {
    const told: unknown[] = [];
    const handOffs = new AttemptHandOffs(async (run, reported) => void told.push({ run, reported }));
    const { activities, release } = attemptWaitingOn('post', handOffs);
    await expect(activities.attemptDelivery(input)).resolves.toMatchObject({ status: 'handed-off' });
    release();
    await handOffs.settled();
    expect(told).toEqual([{ run: { workflowId: 'delivery-7-ep_1', runId: undefined }, reported: { round: 1, attempt: 1, outcome: expect.objectContaining({ status: 'succeeded', statusCode: 200 }) } }]);
  });
});

/**
 * A slow receiver's first attempt keeps its workflow task while the process has room for it
 * (first-attempt-budget.ts): it then costs Temporal what a fast delivery costs. Without room, or
 * past what its run allows, it is handed off as before.
 */
describe('delivery attempt: a slow first attempt keeps its task while there is room', () => {
  const secretBox = createSecretBox(randomBytes(32));
  const endpoint = endpointDoc(secretBox.seal('whsec_test'));
  const input: AttemptInput = { eventId: 7, endpointId: 'ep_1', accountId: 'acct_1', round: 1, attempt: 1, type: 'a.b', timestamp: 1, body: '{}', handOffAfterMs: 5, holdUpToMs: 60_000 };

  /** The attempt's receiver answers when `answer` is called. */
  function slowReceiverAttempt(holds: AttemptHolds) {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const handOffs = new AttemptHandOffs(async () => undefined);
    const activities = createDeliveryActivities({
      ...idleDeliveryDeps(),
      endpoints: { find: async () => endpoint } as unknown as Endpoints,
      events: { findUnscoped: async () => null } as unknown as Events,
      deliveries: { find: async () => null, recordAttempt: async () => undefined, setState: async () => undefined } as unknown as Deliveries,
      secretBox,
      acceptanceSeal: { verify: () => true, seal: () => 'sealed' },
      handOffs,
      holds,
      sender: { send: async () => answered.then(() => ({ outcome: { kind: 'status', statusCode: 200 }, responseBody: 'ok', error: null, durationMs: 1 }) as const), close: async () => undefined },
      endpointHealth: { record: async () => ({ consecutive_failures: 0 }) as never },
      autoDisable: { afterMs: 1, disable: async () => undefined },
    });
    return { activities, answer, handOffs };
  }

  /** How many first attempts are held (the webhook_first_attempts_held gauge). */
  const heldCount = async () => (await metricsRegistry.getSingleMetric('webhook_first_attempts_held')!.get()).values[0]?.value;

  /** Until the attempt holds its place (past its 5 ms budget, however slow this machine is). */
  async function held(): Promise<void> {
    while ((await heldCount()) !== 1) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  it('is held past its hand-off budget and answers with the outcome, holding a place only while it waits', async () => {
    const holds = new AttemptHolds(1);
    const { activities, answer, handOffs } = slowReceiverAttempt(holds);
    const attempt = activities.attemptDelivery({ ...input, seal: 'sealed' });
    await held();
    expect(await heldCount()).toBe(1);
    answer();
    await expect(attempt).resolves.toEqual(expect.objectContaining({ status: 'succeeded', statusCode: 200 }));
    expect(await heldCount()).toBe(0);
    expect(handOffs.inFlight).toBe(0);
  });

  it('is handed off after its budget when the process holds its most', async () => {
    const holds = new AttemptHolds(1);
    const taken = holds.hold();
    const { activities, answer } = slowReceiverAttempt(holds);
    try {
      await expect(activities.attemptDelivery({ ...input, seal: 'sealed' })).resolves.toMatchObject({ status: 'handed-off' });
    } finally {
      answer();
      taken?.release();
    }
  });

  it('is handed off at once when a stop begins while it is held, and gives its place back', async () => {
    const holds = new AttemptHolds(1);
    const { activities, answer } = slowReceiverAttempt(holds);
    try {
      const attempt = activities.attemptDelivery({ ...input, seal: 'sealed' });
      await held();
      holds.stop();
      await expect(attempt).resolves.toMatchObject({ status: 'handed-off' });
      expect(await heldCount()).toBe(0);
    } finally {
      answer();
    }
  });

  it.each([
    ['once it has held its task as long as its run allows', 30],
    ['after its budget when its input sets no hold', undefined],
  ])('is handed off %s, holding no place afterwards', async (_case, holdUpToMs) => {
    const holds = new AttemptHolds(1);
    const { activities, answer } = slowReceiverAttempt(holds);
    try {
      await expect(activities.attemptDelivery({ ...input, seal: 'sealed', holdUpToMs })).resolves.toMatchObject({ status: 'handed-off' });
      expect(await heldCount()).toBe(0);
    } finally {
      answer();
    }
  });
});

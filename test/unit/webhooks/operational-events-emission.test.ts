import { systemClock } from '../../../src/domain/clock';
import { EMPTY_HEALTH, type HealthSummary } from '../../../src/domain/webhooks/endpoint-health';
import { type DeliveryEnd, MAX_EXHAUSTED_NOTICES_PER_EVENT } from '../../../src/domain/webhooks/operational-events';
import type { EndpointDoc } from '../../../src/persistence/endpoints';
import type { EventDoc, NewEvent } from '../../../src/persistence/events';
import { EventService, type EventServiceDeps, type IngestInput } from '../../../src/services/event-service';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-01T10:15:00Z');

/** `n` failed deliveries, a minute apart, the last at T0. */
function failures(n: number): HealthSummary {
  return { ...EMPTY_HEALTH, consecutive_failures: n, failing_since: new Date(T0 - (n - 1) * 60_000), last_failure_at: new Date(T0) };
}

const endpoint: EndpointDoc = {
  _id: 'ep_1',
  account_id: 'acct_1',
  url: 'https://example.com/hook',
  events: ['order.*'],
  description: '',
  secret_sealed: 'sealed',
  disabled: false,
  disabled_reason: null,
  created_at: new Date(T0 - 10 * HOUR),
  updated_at: new Date(T0 - 10 * HOUR),
};

const end = (eventId: number, at = T0, endpointId = 'ep_1'): DeliveryEnd => ({
  accountId: 'acct_1',
  eventId,
  eventType: 'order.paid',
  endpointId,
  round: 1,
  lastAttempt: { attempt: 8, at: new Date(at), statusCode: 500, error: 'Destination answered HTTP 500.' },
});

/** Two processes' emitters on one store: a unique id wins once, and an event's claimers of a kind are capped, as in the store. */
function emitters() {
  const claimed = new Map<string, string>();
  const claims = {
    claimHour: async (kind: string, endpointId: string, hourStart: number, by: string) => {
      const id = `${kind}:${endpointId}:${hourStart}`;
      if (!claimed.has(id)) claimed.set(id, by);
      return claimed.get(id) === by;
    },
  };
  const noticeClaimers = new Map<string, string[]>();
  const stored = {
    claimNotice: async (eventId: number, kind: string, max: number, by: string) => {
      const claimers = noticeClaimers.get(`${kind}:${eventId}`) ?? [];
      noticeClaimers.set(`${kind}:${eventId}`, claimers);
      if (!claimers.includes(by) && claimers.length < max) claimers.push(by);
      return claimers.includes(by);
    },
  };
  const emitted: Array<{ accountId: string; input: IngestInput }> = [];
  const make = () => {
    const deps = { endpoints: { find: async () => endpoint }, events: stored, operationalNoticeClaims: claims, noticeRules: { failingAfter: 5, autoDisableAfterMs: 120 * HOUR }, clock: systemClock };
    const events = new EventService(deps as unknown as EventServiceDeps);
    jest.spyOn(events, 'emitPlatformEvent').mockImplementation(async (accountId, input) => void emitted.push({ accountId, input }));
    return events;
  };
  return { first: make(), second: make(), emitted, failingEmitted: () => emitted.filter((e) => e.input.type === 'platform.endpoint.failing') };
}

describe('EventService.deliveryFailed', () => {
  it('emits delivery.exhausted for at most MAX_EXHAUSTED_NOTICES_PER_EVENT of one event’s deliveries, across processes, and again for a retried claimer', async () => {
    const { first, second, emitted } = emitters();
    const ends = Array.from({ length: MAX_EXHAUSTED_NOTICES_PER_EVENT + 3 }, (_, i) => end(7, T0, `ep_${i}`));
    await Promise.all(ends.map((e, i) => (i % 2 ? first : second).deliveryFailed(e, failures(1))));
    const exhausted = () => emitted.filter((e) => e.input.type === 'platform.delivery.exhausted');
    expect(exhausted()).toHaveLength(MAX_EXHAUSTED_NOTICES_PER_EVENT);
    const told = exhausted()[0].input.data.endpoint_id as string;
    await first.deliveryFailed(end(7, T0, told), failures(1));
    expect(exhausted()).toHaveLength(MAX_EXHAUSTED_NOTICES_PER_EVENT + 1); // the retried activity emits again (its key makes it one event)
    await first.deliveryFailed(end(8), failures(1));
    expect(exhausted()).toHaveLength(MAX_EXHAUSTED_NOTICES_PER_EVENT + 2); // another event has its own
  });

  it('emits delivery.exhausted for the account, keyed by event, endpoint and round', async () => {
    const { first, emitted } = emitters();
    await first.deliveryFailed(end(4711), failures(1));
    expect(emitted).toEqual([
      { accountId: 'acct_1', input: { type: 'platform.delivery.exhausted', idempotency_key: 'platform:delivery.exhausted:4711:ep_1:1', data: expect.objectContaining({ event_id: 4711 }) } },
    ]);
  });

  it('emits endpoint.failing once an hour per endpoint, whichever process sees the failures', async () => {
    const { first, second, failingEmitted } = emitters();
    await first.deliveryFailed(end(1), failures(5));
    await second.deliveryFailed(end(2, T0 + 10 * 60_000), failures(6));
    await first.deliveryFailed(end(3, T0 + 20 * 60_000), failures(7));
    expect(failingEmitted()).toHaveLength(1);
    await second.deliveryFailed(end(4, T0 + HOUR), failures(8));
    expect(failingEmitted()).toHaveLength(2);
  });

  it('emits endpoint.failing again for the delivery that claimed the hour, when its activity is retried', async () => {
    const { first, failingEmitted } = emitters();
    await first.deliveryFailed(end(1), failures(5));
    await first.deliveryFailed(end(1), failures(5));
    // The same key both times: the ingest answers the repeat with the first event.
    expect(failingEmitted().map((e) => e.input.idempotency_key)).toEqual([failingEmitted()[0].input.idempotency_key, failingEmitted()[0].input.idempotency_key]);
  });
});

describe('EventService.emitPlatformEvent', () => {
  function service() {
    const stored: EventDoc[] = [];
    const enqueued: number[] = [];
    const records = new Map<string, Record<string, unknown>>();
    const deps = {
      events: {
        insertWithNextId: async (doc: NewEvent, bodyFor: (id: number) => string) => {
          const event = { ...doc, _id: stored.length + 1, body: bodyFor(stored.length + 1), owner: 'instance_1' } as EventDoc;
          stored.push(event);
          return event;
        },
        find: async (_accountId: string, id: number) => stored.find((e) => e._id === id) ?? null,
      },
      idempotency: {
        find: async ({ accountId }: { accountId: string }, key: string) => {
          const response = records.get(`${accountId}:${key}`);
          return response ? { response, expires_at: new Date(Date.now() + HOUR) } : null;
        },
        claim: async (record: { account_id: string; key: string; event_id: number; response: Record<string, unknown> }) => {
          const id = `${record.account_id}:${record.key}`;
          if (!records.has(id)) records.set(id, record.response);
          return { ...record, response: records.get(id) };
        },
      },
      endpointsCache: { enabled: async () => [{ ...endpoint, events: ['platform.*'] }, endpoint] },
      outbox: { awaiting: { ingestBegins: () => () => undefined }, enqueue: async (event: EventDoc) => void enqueued.push(event._id) },
      lease: { id: 'instance_1' },
      clock: systemClock,
    } as unknown as EventServiceDeps;
    return { events: new EventService(deps), stored, enqueued, records };
  }

  it('stores the event for the endpoints subscribed to it, and returns once its deliveries are started', async () => {
    const { events, stored, enqueued } = service();
    await events.emitPlatformEvent('acct_1', { type: 'platform.endpoint.failing', data: {}, idempotency_key: 'platform:endpoint.failing:ep_1:0' });
    expect(stored.map((e) => [e.type, e.endpoint_ids])).toEqual([['platform.endpoint.failing', ['ep_1']]]);
    expect(enqueued).toEqual([1]);
  });

  it('stores nothing more for a repeat of its key (a retried activity), and starts the first event\'s deliveries again', async () => {
    const { events, stored, enqueued } = service();
    const input = { type: 'platform.endpoint.failing', data: {}, idempotency_key: 'platform:endpoint.failing:ep_1:0' };
    await events.emitPlatformEvent('acct_1', input);
    await events.emitPlatformEvent('acct_1', input);
    expect(stored).toHaveLength(1);
    expect(enqueued).toEqual([1, 1]);
  });

  it('refuses a type outside the reserved prefix', async () => {
    const { events, stored } = service();
    await expect(events.emitPlatformEvent('acct_1', { type: 'order.paid', data: {}, idempotency_key: 'k' })).rejects.toThrow('not an operational event type');
    expect(stored).toEqual([]);
  });
});

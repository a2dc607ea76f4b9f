import { EMPTY_HEALTH, type HealthSummary } from '../../../src/domain/webhooks/endpoint-health';
import { matchesEventType } from '../../../src/domain/webhooks/event-pattern';
import {
  type DeliveryEnd,
  type EndpointState,
  isOperationalEndpoint,
  MAX_EXHAUSTED_NOTICES_PER_EVENT,
  noticesForFailedDelivery,
  OPERATIONAL_EVENT_TYPES,
} from '../../../src/domain/webhooks/operational-events';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RULES = { failingAfter: 5, autoDisableAfterMs: 5 * DAY };
const T0 = Date.parse('2026-11-01T10:15:00Z');
const at = (ms: number) => new Date(T0 + ms);

/** `n` failed deliveries, an hour apart, the last at `T0 + lastMs`. */
function failures(n: number, lastMs = 0): HealthSummary {
  return { ...EMPTY_HEALTH, consecutive_failures: n, failing_since: at(lastMs - (n - 1) * HOUR), last_failure_at: at(lastMs) };
}

const end = (overrides: Partial<DeliveryEnd> = {}, attempt = 8, ms = 0): DeliveryEnd => ({
  accountId: 'acct_1',
  eventId: 4711,
  eventType: 'order.paid',
  endpointId: 'ep_1',
  round: 1,
  lastAttempt: { attempt, at: at(ms), statusCode: 503, error: 'Destination answered HTTP 503.' },
  ...overrides,
});

const endpoint = (overrides: Partial<EndpointState> = {}): EndpointState => ({
  url: 'https://example.com/hook',
  events: ['order.*'],
  disabled: false,
  disabled_reason: null,
  updated_at: at(-DAY),
  ...overrides,
});

const types = (notices: Array<{ type: string }>) => notices.map((n) => n.type);

describe('operational events: subscription', () => {
  it('does not match `*` to operational events, so only endpoints that ask for them get them', () => {
    expect(matchesEventType('*', OPERATIONAL_EVENT_TYPES.endpointDisabled)).toBe(false);
    expect(matchesEventType('*', 'order.paid')).toBe(true);
  });

  it('matches `platform.*` and the exact types to every operational event', () => {
    for (const type of Object.values(OPERATIONAL_EVENT_TYPES)) {
      expect(matchesEventType('platform.*', type)).toBe(true);
      expect(matchesEventType(type, type)).toBe(true);
    }
  });

  it('counts an endpoint as operational when one of its patterns names the reserved prefix', () => {
    expect(isOperationalEndpoint(['order.*', 'platform.*'])).toBe(true);
    expect(isOperationalEndpoint(['platform.endpoint.*'])).toBe(true);
    expect(isOperationalEndpoint(['platform.delivery.exhausted'])).toBe(true);
    expect(isOperationalEndpoint(['*'])).toBe(false);
    expect(isOperationalEndpoint(['platformer.*', 'platform'])).toBe(false);
  });
});

describe('operational events: delivery.exhausted', () => {
  it('follows a delivery whose eighth attempt failed, with the last status, error, event and endpoint', () => {
    const [notice] = noticesForFailedDelivery(end(), endpoint(), failures(1), RULES);
    expect(notice).toEqual({
      type: 'platform.delivery.exhausted',
      key: 'platform:delivery.exhausted:4711:ep_1:1',
      data: {
        event_id: 4711,
        event_type: 'order.paid',
        endpoint_id: 'ep_1',
        url: 'https://example.com/hook',
        round: 1,
        attempts: 8,
        last_attempt_at: at(0).toISOString(),
        last_status_code: 503,
        last_error: 'Destination answered HTTP 503.',
      },
      ofEvent: { eventId: 4711, max: MAX_EXHAUSTED_NOTICES_PER_EVENT },
    });
  });

  it('is keyed by event, endpoint and round: a manual retry that fails again is told again', () => {
    const [first] = noticesForFailedDelivery(end({ round: 1 }), endpoint(), failures(1), RULES);
    const [second] = noticesForFailedDelivery(end({ round: 2 }), endpoint(), failures(1), RULES);
    expect(first.key).not.toBe(second.key);
  });

  it('carries a null status code when the last attempt got no answer', () => {
    const noAnswer = end({ lastAttempt: { attempt: 8, at: at(0), statusCode: null, error: 'connect ECONNREFUSED' } });
    expect(noticesForFailedDelivery(noAnswer, endpoint(), failures(1), RULES)[0].data).toMatchObject({ last_status_code: null, last_error: 'connect ECONNREFUSED' });
  });
});

describe('operational events: endpoint.failing', () => {
  it('is not due before the configured number of consecutive failed deliveries', () => {
    expect(types(noticesForFailedDelivery(end(), endpoint(), failures(4), RULES))).toEqual(['platform.delivery.exhausted']);
  });

  it('is due from the configured number on, claimed once per endpoint and hour', () => {
    const notices = noticesForFailedDelivery(end(), endpoint(), failures(5), RULES);
    expect(types(notices)).toEqual(['platform.delivery.exhausted', 'platform.endpoint.failing']);
    const hourStart = Date.parse('2026-11-01T10:00:00Z');
    expect(notices[1]).toMatchObject({
      key: `platform:endpoint.failing:ep_1:${hourStart}`,
      onceAnHour: { endpointId: 'ep_1', hourStart },
      data: { endpoint_id: 'ep_1', consecutive_failures: 5, failing_after: 5, failing_since: at(-4 * HOUR).toISOString(), last_failure_at: at(0).toISOString() },
    });
  });

  it('has the same claim for every failure of one hour and another in the next hour', () => {
    const claimAt = (ms: number) => noticesForFailedDelivery(end({}, 8, ms), endpoint(), failures(6, ms), RULES)[1].onceAnHour;
    expect(claimAt(0)).toEqual(claimAt(40 * 60_000));
    expect(claimAt(0)).not.toEqual(claimAt(HOUR));
  });

  it('follows the configured threshold', () => {
    expect(types(noticesForFailedDelivery(end(), endpoint(), failures(2), { ...RULES, failingAfter: 2 }))).toContain('platform.endpoint.failing');
  });
});

describe('operational events: endpoint.disabled', () => {
  const disabledAt = at(0);
  const disabled = endpoint({ disabled: true, disabled_reason: 'failing', updated_at: disabledAt });
  const longStreak = (): HealthSummary => ({ ...failures(1, -5 * DAY), consecutive_failures: 2, last_failure_at: at(0) });

  it('follows the failure that disabled the endpoint, with why and since when, instead of endpoint.failing', () => {
    const notices = noticesForFailedDelivery(end(), disabled, longStreak(), RULES);
    expect(types(notices)).toEqual(['platform.delivery.exhausted', 'platform.endpoint.disabled']);
    expect(notices[1]).toEqual({
      type: 'platform.endpoint.disabled',
      key: `platform:endpoint.disabled:ep_1:${disabledAt.getTime()}`,
      data: {
        endpoint_id: 'ep_1',
        url: 'https://example.com/hook',
        disabled_reason: 'failing',
        disabled_at: disabledAt.toISOString(),
        failing_since: at(-5 * DAY).toISOString(),
        consecutive_failures: 2,
      },
    });
  });

  it('is not sent for an endpoint its owner disabled', () => {
    const byOwner = endpoint({ disabled: true, disabled_reason: 'manual', updated_at: disabledAt });
    expect(types(noticesForFailedDelivery(end(), byOwner, longStreak(), RULES))).toEqual(['platform.delivery.exhausted']);
  });
});

describe('operational events: the loop guard', () => {
  it('sends nothing about the delivery of an operational event', () => {
    const operational = end({ eventType: OPERATIONAL_EVENT_TYPES.deliveryExhausted });
    expect(noticesForFailedDelivery(operational, endpoint(), failures(10), RULES)).toEqual([]);
  });

  it('sends nothing about an endpoint that receives operational events, even for its ordinary events', () => {
    const receiving = endpoint({ events: ['order.*', 'platform.*'] });
    expect(noticesForFailedDelivery(end(), receiving, failures(10), RULES)).toEqual([]);
    const disabled = endpoint({ events: ['platform.endpoint.disabled'], disabled: true, disabled_reason: 'failing', updated_at: at(0) });
    expect(noticesForFailedDelivery(end(), disabled, failures(10), { ...RULES, autoDisableAfterMs: HOUR })).toEqual([]);
  });
});

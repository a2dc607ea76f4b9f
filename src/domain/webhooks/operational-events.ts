/** Operational events: what the platform tells an account of its deliveries, as events of reserved types (event-pattern.ts). */
import { type DisabledReason, type HealthSummary, hourStartOf, shouldDisableForFailures } from './endpoint-health';
import { isPlatformEventType, parseEventPattern, PLATFORM_EVENT_PREFIX } from './event-pattern';
import { MAX_ATTEMPTS } from './retry-schedule';

export const OPERATIONAL_EVENT_TYPES = Object.freeze({
  endpointDisabled: `${PLATFORM_EVENT_PREFIX}endpoint.disabled`,
  endpointFailing: `${PLATFORM_EVENT_PREFIX}endpoint.failing`,
  deliveryExhausted: `${PLATFORM_EVENT_PREFIX}delivery.exhausted`,
});

/** Default of ENDPOINT_FAILING_AFTER: consecutive failed deliveries before `endpoint.failing`. */
export const DEFAULT_FAILING_AFTER = 5;

/**
 * `delivery.exhausted` events one event's deliveries may cause, all its endpoints and rounds together: one call (an ingest to
 * many failing endpoints) costs the account's `platform.*` endpoints at most this many events' deliveries, as that many ingests would.
 */
export const MAX_EXHAUSTED_NOTICES_PER_EVENT = 5;

/** It receives operational events: a valid pattern names the reserved prefix (`*` does not). Nothing is emitted about it (no loop). */
export function isOperationalEndpoint(patterns: readonly string[]): boolean {
  return patterns.some((p) => isPlatformEventType(p) && parseEventPattern(p) !== null);
}

/** What the end of one delivery round to an endpoint is (only a failed one calls for notices). */
export interface DeliveryEnd {
  accountId: string;
  eventId: number;
  eventType: string;
  endpointId: string;
  round: number;
  /** The last attempt's answer: its status code (null without one) and error. */
  lastAttempt: { attempt: number; at: Date; statusCode: number | null; error: string | null };
}

/** The endpoint's record as it is once the failure was recorded (and the auto-disable rule applied). */
export interface EndpointState {
  url: string;
  events: readonly string[];
  disabled: boolean;
  disabled_reason: DisabledReason | null;
  /** Its record's last change: when it was disabled, if it is. */
  updated_at: Date;
}

export interface NoticeRules {
  failingAfter: number;
  autoDisableAfterMs: number;
}

/** An event to emit; `key` makes the emission idempotent. `onceAnHour` and `ofEvent` must first be claimed in the store. */
export interface OperationalNotice {
  type: (typeof OPERATIONAL_EVENT_TYPES)[keyof typeof OPERATIONAL_EVENT_TYPES];
  key: string;
  data: Record<string, unknown>;
  onceAnHour?: { endpointId: string; hourStart: number };
  /** One of at most `max` such notices about this event (MAX_EXHAUSTED_NOTICES_PER_EVENT). */
  ofEvent?: { eventId: number; max: number };
}

/** The notices a failed delivery calls for; none about an operational event or an endpoint receiving them (loop guard). */
export function noticesForFailedDelivery(end: DeliveryEnd, endpoint: EndpointState, health: HealthSummary, rules: NoticeRules): OperationalNotice[] {
  if (isPlatformEventType(end.eventType) || isOperationalEndpoint(endpoint.events)) return [];
  const { endpointId } = end;
  const notices: OperationalNotice[] = [];
  if (end.lastAttempt.attempt >= MAX_ATTEMPTS) {
    notices.push({
      type: OPERATIONAL_EVENT_TYPES.deliveryExhausted,
      key: `platform:delivery.exhausted:${end.eventId}:${endpointId}:${end.round}`,
      data: {
        event_id: end.eventId,
        event_type: end.eventType,
        endpoint_id: endpointId,
        url: endpoint.url,
        round: end.round,
        attempts: end.lastAttempt.attempt,
        last_attempt_at: end.lastAttempt.at.toISOString(),
        last_status_code: end.lastAttempt.statusCode,
        last_error: end.lastAttempt.error,
      },
      ofEvent: { eventId: end.eventId, max: MAX_EXHAUSTED_NOTICES_PER_EVENT },
    });
  }
  const at = end.lastAttempt.at;
  if (endpoint.disabled && endpoint.disabled_reason === 'failing' && shouldDisableForFailures(health, at, rules.autoDisableAfterMs)) {
    notices.push({
      type: OPERATIONAL_EVENT_TYPES.endpointDisabled,
      // One per disabling: the endpoint's own record of when, the same for every process that sees it.
      key: `platform:endpoint.disabled:${endpointId}:${endpoint.updated_at.getTime()}`,
      data: {
        endpoint_id: endpointId,
        url: endpoint.url,
        disabled_reason: endpoint.disabled_reason,
        disabled_at: endpoint.updated_at.toISOString(),
        failing_since: health.failing_since?.toISOString() ?? null,
        consecutive_failures: health.consecutive_failures,
      },
    });
  } else if (!endpoint.disabled && health.consecutive_failures >= rules.failingAfter) {
    const hourStart = hourStartOf(at);
    notices.push({
      type: OPERATIONAL_EVENT_TYPES.endpointFailing,
      key: `platform:endpoint.failing:${endpointId}:${hourStart}`,
      data: {
        endpoint_id: endpointId,
        url: endpoint.url,
        consecutive_failures: health.consecutive_failures,
        failing_after: rules.failingAfter,
        failing_since: health.failing_since?.toISOString() ?? null,
        last_failure_at: health.last_failure_at?.toISOString() ?? null,
      },
      onceAnHour: { endpointId, hourStart },
    });
  }
  return notices;
}

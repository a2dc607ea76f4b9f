import { buildDeliveryHeaders } from '../src/domain/webhooks/delivery-request';
import { deriveEventStatus, DeliveryStatus } from '../src/domain/webhooks/delivery-status';
import { delayAfterAttempt } from '../src/domain/webhooks/retry-schedule';
import type { SecretBox } from '../src/domain/webhooks/secret-box';
import { signPayload } from '../src/domain/webhooks/signature';
import type { Deliveries, DeliveryAttempt } from '../src/persistence/deliveries';
import { deliveryId } from '../src/persistence/deliveries';
import type { Endpoints } from '../src/persistence/endpoints';
import type { Events } from '../src/persistence/events';
import type { HttpSender } from './http-sender';

export interface DeliveryTarget {
  eventId: number;
  endpointId: string;
  accountId: string;
  round: number;
}

export interface AttemptInput extends DeliveryTarget {
  attempt: number;
}

export interface AttemptOutcome {
  /** `retrying`: failed, and the schedule has another attempt. */
  status: Extract<DeliveryStatus, 'succeeded' | 'retrying' | 'failed' | 'cancelled'>;
  statusCode: number | null;
}

export interface DeliveryActivityDeps {
  endpoints: Endpoints;
  events: Events;
  deliveries: Deliveries;
  secretBox: SecretBox;
  sender: HttpSender;
  clock?: () => Date;
}

/**
 * All I/O of a delivery. Built by a factory that receives its dependencies, so the worker
 * wires real ones and tests can wire their own; workflows import only the types.
 */
export function createDeliveryActivities(deps: DeliveryActivityDeps) {
  const clock = deps.clock ?? (() => new Date());

  /** The event's status follows from its deliveries; `known` is the state this activity just wrote. */
  async function refreshEventStatus(eventId: number, endpointIds: string[], known?: { endpointId: string; status: DeliveryStatus }): Promise<void> {
    const others = endpointIds.filter((e) => e !== known?.endpointId);
    const all = await deps.deliveries.forEvent(eventId, others);
    const statuses = all.map((d) => d?.status ?? 'pending');
    if (known) statuses.push(known.status);
    await deps.events.setStatus(eventId, deriveEventStatus(statuses));
  }

  function outcomeOf(recorded: DeliveryAttempt): AttemptOutcome {
    if (recorded.succeeded) return { status: 'succeeded', statusCode: recorded.status_code };
    return { status: delayAfterAttempt(recorded.attempt) === null ? 'failed' : 'retrying', statusCode: recorded.status_code };
  }

  return {
    /**
     * One attempt: re-reads the endpoint (deleted or disabled → cancelled; a rotated secret
     * signs), POSTs the stored body bytes, and records the attempt and the delivery's new
     * state. Recording is idempotent: an activity retried after recording returns the
     * recorded outcome without posting again.
     */
    async attemptDelivery(input: AttemptInput): Promise<AttemptOutcome> {
      const id = deliveryId(input.eventId, input.endpointId);
      const [delivery, endpoint, event] = await Promise.all([
        deps.deliveries.find(id),
        deps.endpoints.find(input.accountId, input.endpointId),
        deps.events.findAny(input.eventId),
      ]);
      const recorded = delivery?.attempts.find((a) => a.round === input.round && a.attempt === input.attempt);
      if (recorded) return outcomeOf(recorded);
      if (!endpoint || endpoint.disabled || !event || !delivery) {
        if (delivery) await deps.deliveries.setState(delivery, input.round, { status: 'cancelled', attempt_count: delivery.attempt_count, next_attempt_at: null }, clock());
        if (event) await refreshEventStatus(input.eventId, event.endpoint_ids);
        return { status: 'cancelled', statusCode: null };
      }

      const secret = deps.secretBox.open(endpoint.secret_sealed);
      const headers = buildDeliveryHeaders({
        id: event._id,
        type: event.type,
        timestamp: event.timestamp,
        signature: signPayload(secret, event.body),
      });
      const startedAt = clock();
      const result = await deps.sender.send({ url: endpoint.url, headers: { ...headers }, body: event.body });
      const finishedAt = new Date(startedAt.getTime() + result.durationMs);
      const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      const delay = delayAfterAttempt(input.attempt);
      const status: AttemptOutcome['status'] = succeeded ? 'succeeded' : delay === null ? 'failed' : 'retrying';
      const error = succeeded ? null : (result.error ?? `Destination answered HTTP ${result.statusCode}.`);

      await deps.deliveries.recordAttempt(
        delivery,
        {
          round: input.round,
          attempt: input.attempt,
          started_at: startedAt,
          duration_ms: result.durationMs,
          status_code: result.statusCode,
          error,
          response_body: result.responseBody,
          succeeded,
        },
        {
          status,
          attempt_count: input.attempt,
          next_attempt_at: status === 'retrying' && delay !== null ? new Date(finishedAt.getTime() + delay) : null,
          url: endpoint.url,
        },
        finishedAt,
      );
      await refreshEventStatus(input.eventId, event.endpoint_ids, { endpointId: input.endpointId, status });
      return { status, statusCode: result.statusCode };
    },

    /** The workflow was cancelled (endpoint deleted or disabled while retries were pending). */
    async cancelDelivery(input: DeliveryTarget): Promise<void> {
      const id = deliveryId(input.eventId, input.endpointId);
      const current = await deps.deliveries.find(id);
      if (!current || current.round !== input.round || current.status === 'succeeded' || current.status === 'failed') return;
      await deps.deliveries.setState(current, input.round, { status: 'cancelled', attempt_count: current.attempt_count, next_attempt_at: null }, clock());
      const event = await deps.events.findAny(input.eventId);
      if (event) await refreshEventStatus(input.eventId, event.endpoint_ids);
    },
  };
}

export type DeliveryActivities = ReturnType<typeof createDeliveryActivities>;

import { idempotencyExpiry } from '../domain/webhooks/idempotency-window';
import type { EventDoc } from '../persistence/events';
import type { NewIdempotencyRecord } from '../persistence/idempotency-records';

/** The 202 body of a new event, answered again (with 200) to every repeat of its key. */
export function ingestResponse(event: EventDoc): Record<string, unknown> {
  return {
    id: event._id,
    type: event.type,
    timestamp: event.timestamp,
    idempotency_key: event.idempotency_key,
    destinations: event.endpoint_ids.length,
  };
}

/** The record that makes `event` the answer to its idempotency key for the window. */
export function idempotencyRecordFor(event: EventDoc): NewIdempotencyRecord {
  return {
    account_id: event.account_id,
    key: event.idempotency_key as string,
    event_id: event._id,
    response: ingestResponse(event),
    created_at: event.created_at,
    expires_at: idempotencyExpiry(event.created_at),
  };
}

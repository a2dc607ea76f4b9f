import type { Clock } from '../domain/clock';
import { keyIssuerOf } from '../domain/webhooks/idempotency-key';
import { IDEMPOTENCY_WINDOW_MS } from '../domain/webhooks/idempotency-window';
import type { EventDoc, Events } from '../persistence/events';
import type { IdempotencyRecords, NewIdempotencyRecord } from '../persistence/idempotency-records';
import type { DeliveryOutbox } from './delivery-outbox';

/** Which event answers the key of an event stored with one: this one, or another (whose 202 body repeats get). */
export type KeySettlement = { answers: 'this' } | { answers: 'another'; response: Record<string, unknown> };
export type KeySettlementDeps = { idempotency: IdempotencyRecords; events: Events; outbox: Pick<DeliveryOutbox, 'awaiting'>; clock: Clock };

/** The 202 body of a new event, answered again (with 200) to every repeat of its key. */
export function ingestResponse(event: EventDoc) {
  return {
    id: event._id,
    type: event.type,
    timestamp: event.timestamp,
    idempotency_key: event.idempotency_key,
    // Only on a tenant's event: for a caller that never names a tenant, the answer stays CONTRACT §4's exact shape.
    ...(event.tenant_id !== undefined && { tenant_id: event.tenant_id }),
    destinations: event.endpoint_ids.length,
  };
}

/** The record that makes `event` the answer to its idempotency key for the window. */
export function idempotencyRecordFor(event: EventDoc): NewIdempotencyRecord {
  return {
    account_id: event.account_id,
    ...(event.tenant_id !== undefined && { tenant_id: event.tenant_id }),
    issuer: keyIssuerOf(event.type),
    key: event.idempotency_key as string,
    event_id: event._id,
    response: ingestResponse(event),
    created_at: event.created_at,
    expires_at: new Date(event.created_at.getTime() + IDEMPOTENCY_WINDOW_MS),
  };
}

/**
 * The only place an event is deleted for losing its key: one stored with a key is acknowledged only once it answers it,
 * so if another answers, it never was. A claim whose answer was lost may be repeated (it returns the same record).
 */
export async function settleKey(deps: KeySettlementDeps, event: EventDoc): Promise<KeySettlement> {
  const record = await deps.idempotency.claim(idempotencyRecordFor(event), deps.clock);
  if (record.event_id === event._id) return { answers: 'this' };
  await deps.events.delete(event._id);
  deps.outbox.awaiting.leave(event._id);
  return { answers: 'another', response: record.response };
}

/** An ingest whose insert or key claim got no answer (503): delivered (true) if the event is stored and answers its key; else forgotten. */
export async function settleUnansweredInsert(deps: KeySettlementDeps, event: EventDoc): Promise<boolean> {
  if (!(await deps.events.holds(event))) {
    deps.outbox.awaiting.leave(event._id);
    return false;
  }
  return event.idempotency_key === null || (await settleKey(deps, event)).answers === 'this';
}

import type { Clock } from '../domain/clock';
import type { EventDoc, Events } from '../persistence/events';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { DeliveryOutbox } from './delivery-outbox';
import { idempotencyRecordFor } from './ingest-receipt';

/** Which event answers the key of an event stored with one: this one, or another (whose 202 body repeats get). */
export type KeySettlement = { answers: 'this' } | { answers: 'another'; response: Record<string, unknown> };
export type KeySettlementDeps = { idempotency: IdempotencyRecords; events: Events; outbox: Pick<DeliveryOutbox, 'awaiting'>; clock: Clock };

/**
 * The only place an event is deleted for losing its key (ingest and crash recovery ask). An event stored
 * with a key is acknowledged only once it answers it; a claim whose answer was lost may be repeated (one
 * for the same event returns its record). If another event answers the key, it was never acknowledged.
 */
export async function settleKey(deps: KeySettlementDeps, event: EventDoc): Promise<KeySettlement> {
  const record = await deps.idempotency.claim(idempotencyRecordFor(event), deps.clock);
  if (record.event_id === event._id) return { answers: 'this' };
  await deps.events.delete(event._id);
  deps.outbox.awaiting.leave(event._id);
  return { answers: 'another', response: record.response };
}

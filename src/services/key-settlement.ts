import type { Clock } from '../domain/clock';
import type { EventDoc, Events } from '../persistence/events';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { DeliveryOutbox } from './delivery-outbox';
import { idempotencyRecordFor } from './ingest-receipt';

/** Which event answers the key of an event stored with one: this one, or another (whose 202 body repeats get). */
export type KeySettlement = { answers: 'this' } | { answers: 'another'; response: Record<string, unknown> };
export type KeySettlementDeps = { idempotency: IdempotencyRecords; events: Events; outbox: Pick<DeliveryOutbox, 'awaiting'>; clock: Clock };

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

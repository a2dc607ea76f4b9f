import type { EventDoc, Events } from '../persistence/events';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { DeliveryOutbox } from './delivery-outbox';
import { settleKey } from './key-settlement';

/**
 * An event whose insert got no answer (EventInsertUnanswered) may be stored, and its ingest
 * answered 503, which says so. Once the store answers, it is settled like an event whose process
 * died after storing it: not stored, it is forgotten (the caller repeats); stored, it is
 * delivered when it answers its key or has none, and removed when a repeat's event took the key
 * first (key-settlement.ts). True: deliver it.
 */
export async function settleUnansweredInsert(
  deps: { idempotency: IdempotencyRecords; events: Events; outbox: Pick<DeliveryOutbox, 'release'> },
  event: EventDoc,
  now: () => Date,
): Promise<boolean> {
  if (!(await deps.events.holds(event))) {
    deps.outbox.release(event._id);
    return false;
  }
  return event.idempotency_key === null || (await settleKey(deps, event, now)).answers === 'this';
}

import type { EventDoc, Events } from '../persistence/events';
import type { IdempotencyRecords } from '../persistence/idempotency-records';
import type { DeliveryOutbox } from './delivery-outbox';
import { settleKey } from './key-settlement';

/**
 * An event whose insert got no answer (EventInsertUnanswered; its ingest answered 503) may be stored.
 * Settled like one whose process died: not stored, forgotten (the caller repeats); stored, delivered
 * unless a repeat's event took its key first (key-settlement.ts). True: deliver it.
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

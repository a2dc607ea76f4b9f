import type { EventDoc } from '../persistence/events';
import { settleKey, type KeySettlementDeps } from './key-settlement';

/**
 * An event whose insert got no answer (EventInsertUnanswered; its ingest answered 503) may be stored.
 * Settled like one whose process died: not stored, forgotten (the caller repeats); stored, delivered
 * unless a repeat's event took its key first (key-settlement.ts). True: deliver it.
 */
export async function settleUnansweredInsert(deps: KeySettlementDeps, event: EventDoc): Promise<boolean> {
  if (!(await deps.events.holds(event))) {
    deps.outbox.awaiting.leave(event._id);
    return false;
  }
  return event.idempotency_key === null || (await settleKey(deps, event)).answers === 'this';
}

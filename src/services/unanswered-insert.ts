import type { EventDoc } from '../persistence/events';
import { settleKey, type KeySettlementDeps } from './key-settlement';

/**
 * An insert with no answer (its ingest answered 503) may have stored the event. Not stored: forgotten (the caller repeats);
 * stored: delivered (true) unless a repeat's event took its key first.
 */
export async function settleUnansweredInsert(deps: KeySettlementDeps, event: EventDoc): Promise<boolean> {
  if (!(await deps.events.holds(event))) {
    deps.outbox.awaiting.leave(event._id);
    return false;
  }
  return event.idempotency_key === null || (await settleKey(deps, event)).answers === 'this';
}

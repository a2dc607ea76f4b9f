import type { ErrorCode } from '../src/domain/error-codes';
import { isDomainError } from '../src/domain/errors';

/** What a manual retry answers that leaves the delivery to the others (409 and 404): skipped, not failed. */
const SKIPPED: ErrorCode[] = ['delivery_in_flight', 'delivery_not_retryable', 'delivery_round_limit', 'endpoint_deleted', 'endpoint_disabled', 'endpoint_tenant_changed', 'not_found'];

/** The I/O of a bulk recovery: one new round per delivery, by `retry`, the manual-retry use case. */
export function createRecoveryActivities(deps: { retry: (accountId: string, eventId: number, endpointId: string) => Promise<unknown> }) {
  return {
    /** `skipped` where a manual retry answers 409 or 404; run again after a fault, a started round is skipped, not doubled. */
    async startDeliveryRound(target: { accountId: string; eventId: number; endpointId: string }): Promise<'started' | 'skipped'> {
      try {
        await deps.retry(target.accountId, target.eventId, target.endpointId);
        return 'started';
      } catch (err) {
        if (isDomainError(err, ...SKIPPED)) return 'skipped';
        throw err;
      }
    },
  };
}

export type RecoveryActivities = ReturnType<typeof createRecoveryActivities>;

import {
  CancellationScope,
  isCancellation,
  patched,
  proxyActivities,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { AttemptOutcome, DeliveryActivities, DeliveryTarget } from '../activities/delivery-activities';
import { decideAfterAttempt } from '../src/domain/webhooks/attempt-decision';
import { readableDelay } from '../src/domain/webhooks/retry-schedule';
import { WEBHOOK_ATTEMPT_COUNT, WEBHOOK_DELIVERY_STATUS } from '../src/temporal/search-attributes';

export type DeliveryWorkflowInput = DeliveryTarget;

export interface DeliveryWorkflowResult {
  status: AttemptOutcome['status'];
  attempts: number;
}

/**
 * Activity retries cover only our own infrastructure faults (database or worker down):
 * an attempt's outcome, whatever the receiver did, is a returned value. So these retries
 * never add or skip a delivery attempt; they only wait for the attempt to be made.
 * The attempt heartbeats while it waits for the receiver: if its worker dies, Temporal
 * notices within the heartbeat timeout and hands the attempt to another worker.
 */
const { attemptDelivery, cancelDelivery } = proxyActivities<DeliveryActivities>({
  // 30 s POST + DNS + one store read and write.
  startToCloseTimeout: '90 seconds',
  heartbeatTimeout: '8 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One delivery of one event to one endpoint (workflow id `delivery-<eventId>-<endpointId>`).
 * Its timers are the retry schedule: attempt, and after a failure sleep as decideAfterAttempt
 * says, at most 8 attempts. Deterministic: all I/O is in the activities.
 */
export async function deliveryWorkflow(input: DeliveryWorkflowInput): Promise<DeliveryWorkflowResult> {
  let attempts = 0;
  try {
    for (let attempt = 1; ; attempt++) {
      // An attempt in flight always finishes and is recorded; a cancellation takes effect after it.
      const outcome = await CancellationScope.nonCancellable(() => attemptDelivery({ ...input, attempt }));
      attempts = outcome.status === 'cancelled' ? attempt - 1 : attempt;
      upsertSearchAttributes([
        { key: WEBHOOK_DELIVERY_STATUS, value: outcome.status },
        { key: WEBHOOK_ATTEMPT_COUNT, value: attempts },
      ]);
      const delay = outcome.status === 'retrying' ? decideAfterAttempt(attempt, false).nextDelayMs : null;
      if (delay === null) return { status: outcome.status, attempts };
      // The timer's summary is in the history: workflows started before it read "after 1800 s" keep it.
      const after = patched('readable-retry-delays') ? readableDelay(delay) : `${delay / 1000} s`;
      await sleep(delay, { summary: `retry ${attempt + 1} after ${after}` });
    }
  } catch (err) {
    if (!isCancellation(err)) throw err;
    // Cancelled from outside (endpoint deleted or disabled): record it, then end as cancelled.
    await CancellationScope.nonCancellable(() => cancelDelivery(input));
    upsertSearchAttributes([{ key: WEBHOOK_DELIVERY_STATUS, value: 'cancelled' }]);
    throw err;
  }
}

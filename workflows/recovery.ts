import { proxyActivities } from '@temporalio/workflow';
import type { RecoveryActivities } from '../activities/recovery-activities';
import { RECOVERY_BATCH } from '../src/domain/webhooks/recovery';
import { BOOKKEEPING_ACTIVITY } from './activity-options';

export interface RecoveryWorkflowInput {
  accountId: string;
  endpointId: string;
  /** ISO 8601: recovered deliveries ended failed or cancelled and were first attempted since then. */
  since: string;
  /** The events whose delivery to the endpoint is started again (at most MAX_RECOVERY_DELIVERIES). */
  eventIds: number[];
}

const { startDeliveryRound } = proxyActivities<RecoveryActivities>(BOOKKEEPING_ACTIVITY);

/** Bulk recovery of one endpoint (workflow id `recover-<endpointId>`): a new round per delivery, a few at a time; `skipped`: left as they were (in flight meanwhile, at the round cap, endpoint disabled or deleted). */
export async function recoveryWorkflow(input: RecoveryWorkflowInput): Promise<{ started: number; skipped: number }> {
  const result = { started: 0, skipped: 0 };
  for (let i = 0; i < input.eventIds.length; i += RECOVERY_BATCH) {
    const batch = input.eventIds.slice(i, i + RECOVERY_BATCH);
    const outcomes = await Promise.all(batch.map((eventId) => startDeliveryRound({ accountId: input.accountId, endpointId: input.endpointId, eventId })));
    for (const outcome of outcomes) result[outcome]++;
  }
  return result;
}

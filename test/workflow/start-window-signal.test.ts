import type { DeliveryActivities } from '../../activities/delivery-activities';
import type { RecoveryActivities } from '../../activities/recovery-activities';
import type { ResumeActivities } from '../../activities/resume-activities';
import { DELIVERY_WORKFLOW_TYPE } from '../../src/temporal/delivery-scheduler';
import { createDeliveryWorker } from '../../src/temporal/worker';
import { timeSkippingEnv } from '../support/workflow-harness';

/**
 * The outbox's start window frees a slot when a workflow's first attempt begins; the delivery
 * worker is what tells it (an activity interceptor), with the workflow's id.
 */
describe('delivery worker and the start window', () => {
  const env = timeSkippingEnv();

  it('reports the workflow id when an attempt begins, before the attempt ends', async () => {
    const taskQueue = `window-${Math.random().toString(36).slice(2)}`;
    const workflowId = `delivery-7-${taskQueue}`;
    const reported: string[] = [];
    let reportedBeforeAttemptEnded: string[] = [];
    const activities: DeliveryActivities & RecoveryActivities & ResumeActivities = {
      async attemptDelivery() {
        reportedBeforeAttemptEnded = [...reported];
        return { status: 'succeeded', nextDelayMs: null, statusCode: 200 };
      },
      async cancelDelivery() {},
      startDeliveryRound: async () => 'skipped',
      pausedDeliveries: async () => [],
      resumePage: async () => ({ endpointPaused: false, waiting: [] }),
    };
    const worker = await createDeliveryWorker({
      connection: env().nativeConnection,
      namespace: 'default',
      taskQueue,
      activities,
      onActivityStarted: (id) => reported.push(id),
      shutdownGraceMs: 35_000,
      firstAttemptsHeld: 0,
      eagerStarts: false,
    });
    await worker.runUntil(
      env().client.workflow.execute(DELIVERY_WORKFLOW_TYPE, {
        taskQueue,
        workflowId,
        args: [{ eventId: 7, endpointId: 'ep_w', accountId: 'acct_w', round: 1, type: 't', timestamp: 1, body: '{}' }],
      }),
    );
    expect(reportedBeforeAttemptEnded).toEqual([workflowId]);
  });
});

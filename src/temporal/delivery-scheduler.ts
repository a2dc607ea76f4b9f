import { Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { DeliveryWorkflowInput } from '../../workflows/delivery';
import {
  WEBHOOK_ACCOUNT_ID,
  WEBHOOK_ATTEMPT_COUNT,
  WEBHOOK_DELIVERY_STATUS,
  WEBHOOK_ENDPOINT_ID,
  WEBHOOK_EVENT_ID,
  WEBHOOK_EVENT_TYPE,
} from './search-attributes';

export interface ScheduledDelivery extends DeliveryWorkflowInput {
  workflowId: string;
  eventType: string;
  url: string;
}

export type StartResult = 'started' | 'already-exists';

/** Starts and cancels delivery workflows; the only code that knows workflow ids and options. */
export class DeliveryScheduler {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    /** The client shares this process's worker connection: ask for eager starts. */
    private readonly options: { eager: boolean } = { eager: false },
  ) {}

  /**
   * First rounds refuse a duplicate id even after the workflow closed, so re-dispatching an
   * event (after a crash) can never deliver it twice; manual retries allow a closed one.
   */
  async start(delivery: ScheduledDelivery, options: { manualRetry: boolean }): Promise<StartResult> {
    try {
      await this.client.workflow.start('deliveryWorkflow', {
        taskQueue: this.taskQueue,
        workflowId: delivery.workflowId,
        args: [{ eventId: delivery.eventId, endpointId: delivery.endpointId, accountId: delivery.accountId, round: delivery.round } satisfies DeliveryWorkflowInput],
        requestEagerStart: this.options.eager,
        workflowIdReusePolicy: options.manualRetry ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: [
          { key: WEBHOOK_EVENT_ID, value: delivery.eventId },
          { key: WEBHOOK_ENDPOINT_ID, value: delivery.endpointId },
          { key: WEBHOOK_EVENT_TYPE, value: delivery.eventType },
          { key: WEBHOOK_ACCOUNT_ID, value: delivery.accountId },
          { key: WEBHOOK_DELIVERY_STATUS, value: 'pending' },
          { key: WEBHOOK_ATTEMPT_COUNT, value: 0 },
        ],
        staticSummary: `${delivery.eventType} #${delivery.eventId} → ${delivery.url}`,
        staticDetails: `Round ${delivery.round} of delivery ${delivery.workflowId} (account ${delivery.accountId}).`,
      });
      return 'started';
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return 'already-exists';
      throw err;
    }
  }

  /** Requests cancellation; a workflow that already ended is left as it is. */
  async cancel(workflowId: string): Promise<void> {
    try {
      await this.client.workflow.getHandle(workflowId).cancel();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return;
      throw err;
    }
  }
}

import { Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { recoveryWorkflowId } from '../domain/webhooks/recovery';
import type { RecoveryWorkflowInput } from '../../workflows/recovery';

/** A bulk recovery as the API shows it; kept in the workflow's memo, so a second caller sees the same. */
export interface RecoveryRun {
  id: string;
  endpoint_id: string;
  since: string;
  count: number;
  started_at: string;
}

/** Starts recovery workflows; the only code that knows their ids and options. */
export class RecoveryScheduler {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
  ) {}

  async running(endpointId: string): Promise<RecoveryRun | null> {
    try {
      const description = await this.client.workflow.getHandle(recoveryWorkflowId(endpointId)).describe();
      return description.status.name === 'RUNNING' ? (description.memo as unknown as RecoveryRun) : null;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return null;
      throw err;
    }
  }

  /** Starts a recovery; while another of the endpoint runs, answers that one instead (one at a time per endpoint). */
  async startOrJoin(input: RecoveryWorkflowInput, at: Date): Promise<RecoveryRun> {
    const run: RecoveryRun = { id: recoveryWorkflowId(input.endpointId), endpoint_id: input.endpointId, since: input.since, count: input.eventIds.length, started_at: at.toISOString() };
    try {
      await this.client.workflow.start('recoveryWorkflow', {
        taskQueue: this.taskQueue,
        workflowId: run.id,
        args: [input],
        memo: { ...run },
        // A finished recovery does not block the next one; a running one does (the start fails and is joined).
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
        staticSummary: `recover ${run.count} deliveries to ${input.endpointId} since ${input.since}`,
        staticDetails: `Bulk recovery of endpoint ${input.endpointId} (account ${input.accountId}).`,
      });
      return run;
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      return (await this.running(input.endpointId)) ?? run;
    }
  }
}

import { Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { recoveryWorkflowId } from '../domain/webhooks/recovery';
import type { RecoveryWorkflowInput } from '../../workflows/recovery';
import { unlessFailedWith } from './unless-failed-with';

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
    const description = await unlessFailedWith(this.client.workflow.getHandle(recoveryWorkflowId(endpointId)).describe(), null, WorkflowNotFoundError);
    return description?.status.name === 'RUNNING' ? (description.memo as unknown as RecoveryRun) : null;
  }

  /** Starts a recovery; while another of the endpoint runs, answers that one instead (one at a time per endpoint). */
  async startOrJoin(input: RecoveryWorkflowInput, at: Date): Promise<RecoveryRun> {
    const run: RecoveryRun = { id: recoveryWorkflowId(input.endpointId), endpoint_id: input.endpointId, since: input.since, count: input.eventIds.length, started_at: at.toISOString() };
    const started = this.client.workflow.start('recoveryWorkflow', {
      taskQueue: this.taskQueue,
      workflowId: run.id,
      args: [input],
      memo: { ...run },
      // A finished recovery does not block the next one; a running one does (the start fails and is joined).
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      staticSummary: `recover ${run.count} deliveries to ${input.endpointId} since ${input.since}`,
      staticDetails: `Bulk recovery of endpoint ${input.endpointId} (account ${input.accountId}).`,
    });
    return (await unlessFailedWith(started.then(() => run), null, WorkflowExecutionAlreadyStartedError)) ?? (await this.running(input.endpointId)) ?? run;
  }
}

import type { Client } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { ResumeWorkflowInput } from '../../workflows/resume';
import { resumeWorkflowId } from '../domain/webhooks/endpoint-pause';

/** Starts an endpoint's resume workflow (workflows/resume.ts); the only code that knows its id and options. */
export class ResumeScheduler {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
  ) {}

  /** Wakes the paused deliveries, oldest first; a running resume is ended (it would miss deliveries paused again since). */
  async start(input: Pick<ResumeWorkflowInput, 'accountId' | 'endpointId'>): Promise<void> {
    await this.client.workflow.start('resumeWorkflow' satisfies keyof typeof import('../../workflows'), {
      taskQueue: this.taskQueue,
      workflowId: resumeWorkflowId(input.endpointId),
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.TERMINATE_EXISTING,
      staticSummary: `resume the paused deliveries to ${input.endpointId}`,
      staticDetails: `Wakes every delivery to endpoint ${input.endpointId} (account ${input.accountId}) that waits paused, oldest event first.`,
    });
  }
}

import type { Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { resumeCalled, type ResumeWorkflowInput } from '../../workflows/resume';
import { resumeWorkflowId } from '../domain/webhooks/endpoint-pause';

/** Starts an endpoint's resume workflow (workflows/resume.ts); the only code that knows its id and options. */
export class ResumeScheduler {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
  ) {}

  /**
   * Wakes the paused deliveries, oldest first: one call, one signal. A resume running already is told (`resumeCalled`) and
   * goes on, then passes once more from the oldest; none running, one is started with that signal.
   */
  async start(input: Pick<ResumeWorkflowInput, 'accountId' | 'endpointId'>): Promise<void> {
    await this.client.workflow.signalWithStart('resumeWorkflow' satisfies keyof typeof import('../../workflows'), {
      taskQueue: this.taskQueue,
      workflowId: resumeWorkflowId(input.endpointId),
      args: [input],
      signal: resumeCalled,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      staticSummary: `resume the paused deliveries to ${input.endpointId}`,
      staticDetails: `Wakes every delivery to endpoint ${input.endpointId} (account ${input.accountId}) that waits paused, oldest event first.`,
    });
  }
}

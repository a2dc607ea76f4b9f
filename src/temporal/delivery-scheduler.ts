import { Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { RunEnded, type ReportedOutcome, type WorkflowRun } from '../../activities/attempt-hand-off';
import { attemptOutcome } from '../../workflows/attempt-outcome';
import type { DeliveryWorkflowInput } from '../../workflows/delivery';
import { fifoTurn } from '../../workflows/fifo-turn';
import { retryNow } from '../../workflows/retry-now';
import type { AcceptanceSeal } from '../domain/webhooks/acceptance-seal';
import { DELIVERY_TASK_TIMEOUT_MS } from '../domain/webhooks/first-attempt-budget';
import { initialDeliverySearchAttributes } from './search-attributes';
import { unlessFailedWith } from './unless-failed-with';

export interface ScheduledDelivery extends Omit<DeliveryWorkflowInput, 'seal'> {
  workflowId: string;
  url: string;
}

export const DELIVERY_WORKFLOW_TYPE = 'deliveryWorkflow' satisfies keyof typeof import('../../workflows');

/** The Temporal UI shows the summary to anyone with access: no query string (it may hold tokens), and short. */
const MAX_SUMMARY_URL_CHARS = 120;

export function summaryUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  const shown = parsed ? `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search ? '?…' : ''}` : url;
  return shown.length > MAX_SUMMARY_URL_CHARS ? `${shown.slice(0, MAX_SUMMARY_URL_CHARS - 1)}…` : shown;
}

/** Starts, wakes and cancels delivery workflows; the only code that knows their start options. */
export class DeliveryScheduler {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly options: {
      /** The client shares this process's worker connection: ask for eager starts. */
      eager: boolean;
      /** Seals each input with its round and workflow id (acceptance-seal.ts), so that its attempts need not read the event back. */
      seal?: AcceptanceSeal;
    } = { eager: false },
  ) {}

  /** First rounds refuse even a closed duplicate id, so a re-dispatch after a crash never delivers twice. */
  async start(delivery: ScheduledDelivery, options: { manualRetry: boolean }): Promise<'started' | 'already-exists'> {
    const { workflowId, url, ...target } = delivery;
    const input: DeliveryWorkflowInput = this.options.seal ? { ...target, seal: this.options.seal.seal(delivery) } : target;
    const started = this.client.workflow.start(DELIVERY_WORKFLOW_TYPE, {
      taskQueue: this.taskQueue,
      workflowId,
      args: [input],
      requestEagerStart: this.options.eager,
      // A first attempt keeps this task while its receiver answers (first-attempt-budget.ts).
      workflowTaskTimeout: DELIVERY_TASK_TIMEOUT_MS,
      // Dispatched by account in turn (task-queue fairness): one account's backlog does not delay the others.
      priority: { fairnessKey: delivery.accountId },
      workflowIdReusePolicy: options.manualRetry ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: [...initialDeliverySearchAttributes(delivery)],
      staticSummary: `${delivery.type} #${delivery.eventId} → ${summaryUrl(url)}`,
      staticDetails: `Round ${delivery.round} of delivery ${workflowId} (account ${delivery.accountId}).`,
    });
    return unlessFailedWith(started.then(() => 'started' as const), 'already-exists' as const, WorkflowExecutionAlreadyStartedError);
  }

  async isRunning(workflowId: string): Promise<boolean> {
    const description = await unlessFailedWith(this.client.workflow.getHandle(workflowId).describe(), null, WorkflowNotFoundError);
    return description?.status.name === 'RUNNING';
  }

  /** Requests cancellation; a workflow that already ended is left as it is (false). */
  async cancel(workflowId: string): Promise<boolean> {
    return unlessFailedWith(this.client.workflow.getHandle(workflowId).cancel().then(() => true), false, WorkflowNotFoundError);
  }

  /**
   * Wakes a delivery waiting to retry (workflows/retry-now.ts): the attempt it makes, or null if none waits. An update
   * waits for a worker to run it, without end if none does: 'unanswered' when none has by `deadline` (epoch ms); it may
   * still be run when one does.
   */
  async retryNow(workflowId: string, deadline: number): Promise<{ attempt: number } | null | 'unanswered'> {
    const update = this.client.withDeadline(deadline, () => this.client.workflow.getHandle(workflowId).executeUpdate(retryNow));
    return unlessFailedWith(unlessFailedWith(update, null, WorkflowNotFoundError, WorkflowUpdateFailedError), 'unanswered' as const, WorkflowUpdateRPCTimeoutOrCancelledError);
  }

  /** Tells a delivery waiting on a FIFO endpoint that its turn has come; one that has ended is left as it is. */
  async wakeForTurn(workflowId: string): Promise<void> {
    await unlessFailedWith(this.client.workflow.getHandle(workflowId).signal(fifoTurn), undefined, WorkflowNotFoundError);
  }

  /**
   * Tells a run its handed-off first attempt's outcome; RunEnded if the run ended or no longer waits for it. Like retry
   * now, the update waits for a worker: WorkflowUpdateRPCTimeoutOrCancelledError when none has run it by `deadline`.
   */
  async reportOutcome(run: WorkflowRun, reported: ReportedOutcome, deadline: number): Promise<void> {
    const handle = this.client.workflow.getHandle(run.workflowId, run.runId);
    const update = this.client.withDeadline(deadline, () => handle.executeUpdate(attemptOutcome, { args: [reported] }));
    const taken = await unlessFailedWith(update.then(() => true), false, WorkflowNotFoundError, WorkflowUpdateFailedError);
    if (!taken) throw new RunEnded(`${run.workflowId} has ended or does not wait for this outcome`);
  }
}

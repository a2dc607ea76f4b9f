import type { SignalDefinition } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { AttemptInput } from '../../activities/delivery-activities';
import { workflowBundle } from '../../src/temporal/worker';
import { deliveryWorkflow } from '../../workflows/delivery';
import * as resumeModule from '../../workflows/resume';
import { waitsPaused } from './delivery-workflows';

export interface ResumeScenario {
  /** A second resume is called while the first page's listing is in flight. */
  calledWhileListing?: boolean;
}

/**
 * An endpoint's resume on a time-skipping server, with fake activities: two deliveries wait paused
 * and a third's run has ended; the resume lists the three (then none) and wakes the two. Runs on the
 * resume workflow as it is now, and as it was before it was told of later resumes (`resumeCalled`),
 * so that scripts/record-histories.ts records either.
 */
export async function runResumeScenario(env: TestWorkflowEnvironment, scenario: ResumeScenario = {}): Promise<{ workflowId: string }> {
  const calledSignal = (resumeModule as Record<string, unknown>).resumeCalled as SignalDefinition | undefined;
  if (scenario.calledWhileListing && !calledSignal) throw new Error('this resume workflow is not told of later resumes');
  const taskQueue = `resume-${Math.random().toString(36).slice(2)}`;
  const workflowId = `endpoint-resume-${taskQueue}`;
  const ids = [1, 2].map((eventId) => `delivery-${eventId}-${taskQueue}`);
  const pausedOnce = new Set<string>();
  let listings = 0;
  let letListingGo!: () => void;
  const listingMayGo = new Promise<void>((r) => (letListingGo = r));
  let markListing!: () => void;
  const listingReached = new Promise<void>((r) => (markListing = r));
  const list = async () => {
    listings++;
    if (listings === 1 && scenario.calledWhileListing) {
      markListing();
      await listingMayGo;
    }
    return listings === 1 ? [...ids.map((id, i) => ({ workflowId: id, eventId: i + 1 })), { workflowId: `delivery-3-${taskQueue}`, eventId: 3 }] : [];
  };
  const activities = {
    async attemptDelivery(a: AttemptInput) {
      const id = `delivery-${a.eventId}-${taskQueue}`;
      if (pausedOnce.has(id)) return { status: 'succeeded' as const, nextDelayMs: null, statusCode: 200 };
      pausedOnce.add(id);
      return { status: 'paused' as const, nextDelayMs: null, statusCode: null };
    },
    async cancelDelivery() {},
    pausedDeliveries: () => list(),
    resumePage: async () => ({ endpointPaused: false, waiting: await list() }),
  };
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowBundle: await workflowBundle(), activities });
  await worker.runUntil(async () => {
    const target = (eventId: number) => ({ eventId, endpointId: 'ep_resume', accountId: 'acct_test', round: 1, type: 'order.created', timestamp: 1_795_000_000, body: '{}' });
    const deliveries = await Promise.all(ids.map((id, i) => env.client.workflow.start(deliveryWorkflow, { taskQueue, workflowId: id, args: [target(i + 1)] })));
    for (const id of ids) while (!(await waitsPaused(env.client, id, 1))) await new Promise((r) => setTimeout(r, 20));
    const options = { taskQueue, workflowId, args: [{ accountId: 'acct_test', endpointId: 'ep_resume' }] as [resumeModule.ResumeWorkflowInput] };
    const resume = calledSignal ? await env.client.workflow.signalWithStart(resumeModule.resumeWorkflow, { ...options, signal: calledSignal }) : await env.client.workflow.start(resumeModule.resumeWorkflow, options);
    if (scenario.calledWhileListing && calledSignal) {
      await listingReached;
      await resume.signal(calledSignal);
      letListingGo();
    }
    await resume.result();
    for (const d of deliveries) await d.result();
  });
  return { workflowId };
}

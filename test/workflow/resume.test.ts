import { Worker } from '@temporalio/worker';
import type { AttemptInput, DeliveryActivities } from '../../activities/delivery-activities';
import type { ResumeActivities } from '../../activities/resume-activities';
import { RESUME_PAGE_SIZE, RESUME_PAGES_PER_RUN } from '../../src/domain/webhooks/endpoint-pause';
import { workflowBundle } from '../../src/temporal/worker';
import { deliveryWorkflow } from '../../workflows/delivery';
import { resumeCalled, resumeWorkflow } from '../../workflows/resume';
import { waitsPaused } from '../support/delivery-workflows';
import { timeSkippingEnv } from '../support/workflow-harness';

type PausedPage = Parameters<ResumeActivities['resumePage']>[0];
type Listed = Array<{ workflowId: string; eventId: number }>;

/**
 * An endpoint's resume (workflows/resume.ts) on Temporal's time-skipping test server, with a fake
 * listing: it signals every delivery the pages list, in their order, counts the runs that have
 * ended, and goes on in a new run after RESUME_PAGES_PER_RUN pages.
 */
describe('resume workflow (time-skipping)', () => {
  const env = timeSkippingEnv();

  const target = (eventId: number) => ({ eventId, endpointId: 'ep_resume', accountId: 'acct_test', round: 1, type: 'order.created', timestamp: 1_795_000_000, body: '{}' });

  it('wakes every waiting delivery it lists, each making the attempt it waited with, and counts those whose run has ended', async () => {
    const taskQueue = `resume-${Math.random().toString(36).slice(2)}`;
    const ids = [1, 2, 3].map((eventId) => `delivery-${eventId}-${taskQueue}`);
    const calls: Array<{ workflowId: string; attempt: number }> = [];
    const pausedOnce = new Set<string>();
    const pages: PausedPage[] = [];
    const activities: DeliveryActivities & ResumeActivities = {
      async attemptDelivery(a: AttemptInput) {
        const workflowId = `delivery-${a.eventId}-${taskQueue}`;
        calls.push({ workflowId, attempt: a.attempt });
        if (!pausedOnce.has(workflowId)) {
          pausedOnce.add(workflowId);
          return { status: 'paused', nextDelayMs: null, statusCode: null };
        }
        return { status: 'succeeded', nextDelayMs: null, statusCode: 200 };
      },
      async cancelDelivery() {},
      async pausedDeliveries(): Promise<Listed> {
        throw new Error('a run started now lists with resumePage');
      },
      async resumePage(page: PausedPage) {
        pages.push(page);
        // Three waiting, and one whose run has ended meanwhile (never started here): listed oldest first.
        return { endpointPaused: false, waiting: [...ids.map((workflowId, i) => ({ workflowId, eventId: i + 1 })), { workflowId: `delivery-4-${taskQueue}`, eventId: 4 }] };
      },
    };
    const worker = await Worker.create({ connection: env().nativeConnection, taskQueue, workflowBundle: await workflowBundle(), activities });
    await worker.runUntil(async () => {
      const handles = await Promise.all(ids.map((workflowId, i) => env().client.workflow.start(deliveryWorkflow, { taskQueue, workflowId, args: [target(i + 1)] })));
      for (const workflowId of ids) while (!(await waitsPaused(env().client, workflowId, 1))) await new Promise((r) => setTimeout(r, 20));

      const result = await env().client.workflow.execute(resumeWorkflow, { taskQueue, workflowId: `endpoint-resume-${taskQueue}`, args: [{ accountId: 'acct_test', endpointId: 'ep_resume' }] });
      expect(result).toEqual({ signalled: 3, ended: 1 });
      expect(pages).toEqual([{ accountId: 'acct_test', endpointId: 'ep_resume', limit: RESUME_PAGE_SIZE }]);
      for (const handle of handles) expect(await handle.result()).toEqual({ status: 'succeeded', attempts: 1 });
    });
    // Each made attempt 1 twice: found paused, then made once woken.
    expect(calls.filter((c) => c.attempt === 1)).toHaveLength(6);
  });

  it('goes through page after page from where the last stopped, and continues as a new run after its pages', async () => {
    const taskQueue = `resume-${Math.random().toString(36).slice(2)}`;
    const fullPages = RESUME_PAGES_PER_RUN + 1;
    const { pages, activities } = listing(taskQueue);
    const worker = await Worker.create({ connection: env().nativeConnection, taskQueue, workflowBundle: await workflowBundle(), activities });
    const workflowId = `endpoint-resume-${taskQueue}`;
    const result = await worker.runUntil(env().client.workflow.execute(resumeWorkflow, { taskQueue, workflowId, args: [{ accountId: 'acct_test', endpointId: 'ep_resume' }] }));
    expect(result).toEqual({ signalled: 0, ended: fullPages * RESUME_PAGE_SIZE + 1 });
    expect(pages.map((p) => p.afterEventId)).toEqual([undefined, ...Array.from({ length: fullPages }, (_, i) => (i + 1) * RESUME_PAGE_SIZE)]);
    // The last run was continued from the one that listed the first pages.
    const last = await env().client.workflow.getHandle(workflowId).fetchHistory();
    expect(last.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBeTruthy();
  }, 120_000);

  /**
   * Runs that are not there: full pages up to RESUME_PAGES_PER_RUN + 1 in a first pass, one in a later pass (those a pause put
   * back); `during(page)` runs while a page is listed (true: the endpoint is paused).
   */
  function listing(taskQueue: string, during: (page: PausedPage) => Promise<boolean | void> = async () => {}) {
    const pages: PausedPage[] = [];
    let passes = 0;
    const activities = {
      async attemptDelivery(): Promise<never> {
        throw new Error('no delivery runs here');
      },
      async cancelDelivery() {},
      async pausedDeliveries(): Promise<Listed> {
        throw new Error('a run started now lists with resumePage');
      },
      async resumePage(page: PausedPage) {
        pages.push(page);
        const paused = await during(page);
        if (page.afterEventId === undefined) passes++;
        const from = (page.afterEventId ?? 0) + 1;
        const count = passes > 1 || from > (RESUME_PAGES_PER_RUN + 1) * RESUME_PAGE_SIZE ? 1 : RESUME_PAGE_SIZE;
        return { endpointPaused: paused === true, waiting: Array.from({ length: count }, (_, i) => ({ workflowId: `delivery-${from + i}-${taskQueue}`, eventId: from + i })) };
      },
    };
    return { pages, activities };
  }

  it('takes in a resume called while it runs, also during the page before it continues as new: it goes on, then passes once more from the oldest', async () => {
    const taskQueue = `resume-${Math.random().toString(36).slice(2)}`;
    const workflowId = `endpoint-resume-${taskQueue}`;
    let calledDuringLastPage!: Promise<void>;
    const { pages, activities } = listing(taskQueue, async (page) => {
      // The last page of the first run: a resume is called while it is listed.
      if (page.afterEventId === (RESUME_PAGES_PER_RUN - 1) * RESUME_PAGE_SIZE) await (calledDuringLastPage = env().client.workflow.getHandle(workflowId).signal(resumeCalled));
    });
    const worker = await Worker.create({ connection: env().nativeConnection, taskQueue, workflowBundle: await workflowBundle(), activities });
    const result = await worker.runUntil(async () => {
      // As the scheduler starts it: the signal it starts with is the call that started it, not a later one.
      const handle = await env().client.workflow.signalWithStart(resumeWorkflow, { taskQueue, workflowId, args: [{ accountId: 'acct_test', endpointId: 'ep_resume' }], signal: resumeCalled });
      return handle.result();
    });
    await calledDuringLastPage;
    // The first pass, carried into a new run, then one more from the oldest (what the pause put back: one here).
    const pass = [undefined, ...Array.from({ length: RESUME_PAGES_PER_RUN + 1 }, (_, i) => (i + 1) * RESUME_PAGE_SIZE)];
    expect(pages.map((p) => p.afterEventId)).toEqual([...pass, undefined]);
    expect(result).toEqual({ signalled: 0, ended: (RESUME_PAGES_PER_RUN + 1) * RESUME_PAGE_SIZE + 1 + 1 });
  }, 180_000);

  it('ends at the page that finds its endpoint paused again, with nothing signalled from it', async () => {
    const taskQueue = `resume-${Math.random().toString(36).slice(2)}`;
    const { pages, activities } = listing(taskQueue, async (page) => page.afterEventId === 2 * RESUME_PAGE_SIZE);
    const worker = await Worker.create({ connection: env().nativeConnection, taskQueue, workflowBundle: await workflowBundle(), activities });
    const result = await worker.runUntil(
      env().client.workflow.signalWithStart(resumeWorkflow, { taskQueue, workflowId: `endpoint-resume-${taskQueue}`, args: [{ accountId: 'acct_test', endpointId: 'ep_resume' }], signal: resumeCalled }).then((h) => h.result()),
    );
    expect(pages.map((p) => p.afterEventId)).toEqual([undefined, RESUME_PAGE_SIZE, 2 * RESUME_PAGE_SIZE]);
    expect(result).toEqual({ signalled: 0, ended: 2 * RESUME_PAGE_SIZE });
  }, 120_000);
});

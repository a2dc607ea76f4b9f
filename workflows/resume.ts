import { ApplicationFailure, continueAsNew, defineSignal, getExternalWorkflowHandle, patched, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { ResumeActivities } from '../activities/resume-activities';
import { RESUME_PAGE_INTERVAL_MS, RESUME_PAGE_SIZE, RESUME_PAGES_PER_RUN, RESUME_SIGNALS_AT_ONCE } from '../src/domain/webhooks/endpoint-pause';
import { BOOKKEEPING_ACTIVITY } from './activity-options';

/** What this workflow sends: the paused delivery makes its attempt again; a signal, kept if sent before the run waits. */
export const resume = defineSignal('resume');

/** What this workflow is sent: a resume called while it runs (src/temporal/resume-scheduler.ts signals it with start). */
export const resumeCalled = defineSignal('resumeCalled');

/** A run that goes on after a later resume instead of being ended by it, and stops once its endpoint is paused again. */
export const RESUME_ABSORBS_PATCH = 'resume-absorbs';

export interface ResumeWorkflowInput {
  accountId: string;
  endpointId: string;
  /** Continues after this event (a run continued as new); absent: from the oldest. */
  afterEventId?: number;
  /** What the earlier runs of this resume did (a run continued as new). */
  done?: ResumeWorkflowResult;
  /** A resume was called after this pass began (a run continued as new): one more pass follows it. */
  calledAgain?: boolean;
}

export interface ResumeWorkflowResult {
  /** Deliveries told to make their attempt now. */
  signalled: number;
  /** Deliveries listed whose run had ended (nothing to wake). */
  ended: number;
}

const { pausedDeliveries, resumePage } = proxyActivities<ResumeActivities>(BOOKKEEPING_ACTIVITY);

/**
 * Signals `resume` to an endpoint's paused deliveries (once its flag is cleared), oldest first, a page at a time, one run
 * per endpoint. A resume called meanwhile is absorbed: once this pass is through, one more goes from the oldest (it wakes
 * those a pause put back since, all that the listing then finds). The endpoint is read with each page: paused again, the
 * run ends, so a pause stops what a resume set off within a page.
 */
export async function resumeWorkflow(input: ResumeWorkflowInput): Promise<ResumeWorkflowResult> {
  return patched(RESUME_ABSORBS_PATCH) ? resumeAbsorbingLaterCalls(input) : resumeEveryPage(input);
}

/** The run since RESUME_ABSORBS_PATCH (exported for the replay test's run without the patch check). */
export async function resumeAbsorbingLaterCalls(input: ResumeWorkflowInput): Promise<ResumeWorkflowResult> {
  const result: ResumeWorkflowResult = { signalled: input.done?.signalled ?? 0, ended: input.done?.ended ?? 0 };
  let calledAgain = input.calledAgain ?? false;
  // The signal this run was started with is delivered here, before the first pass: that pass is its answer.
  setHandler(resumeCalled, () => void (calledAgain = true));
  if (input.afterEventId === undefined && input.done === undefined) calledAgain = false;
  let after = input.afterEventId;
  // Paced: pages of a pass (and passes) RESUME_PAGE_INTERVAL_MS apart, whatever the number of resumes called.
  let paced = input.done !== undefined;
  for (let page = 0; page < RESUME_PAGES_PER_RUN; page++) {
    if (paced) await sleep(RESUME_PAGE_INTERVAL_MS);
    paced = true;
    const listed = await resumePage({ accountId: input.accountId, endpointId: input.endpointId, ...(after !== undefined ? { afterEventId: after } : {}), limit: RESUME_PAGE_SIZE });
    const waiting = listed.endpointPaused ? [] : listed.waiting;
    await wakeAll(waiting, result);
    const last = waiting[waiting.length - 1];
    if (waiting.length < RESUME_PAGE_SIZE || last === undefined) {
      // Read paused: stopped by a pause, unless a resume called since cleared it (then it is read again).
      if (!calledAgain) return result;
      calledAgain = false;
      after = undefined;
    } else {
      after = last.eventId;
    }
  }
  // Each signal adds two events to this history: a long list goes on in a new run (Temporal refuses it while a resume
  // called meanwhile is not handled yet, so `calledAgain` carries every one).
  return continueAsNew<typeof resumeWorkflow>({ ...input, afterEventId: after, done: result, calledAgain });
}

/** The run as before RESUME_ABSORBS_PATCH (a resume ended it and started anew): replays runs started then. */
async function resumeEveryPage(input: ResumeWorkflowInput): Promise<ResumeWorkflowResult> {
  const result: ResumeWorkflowResult = { signalled: input.done?.signalled ?? 0, ended: input.done?.ended ?? 0 };
  let after = input.afterEventId;
  for (let page = 0; page < RESUME_PAGES_PER_RUN; page++) {
    const waiting = await pausedDeliveries({ endpointId: input.endpointId, ...(after !== undefined ? { afterEventId: after } : {}), limit: RESUME_PAGE_SIZE });
    await wakeAll(waiting, result);
    const last = waiting[waiting.length - 1];
    if (waiting.length < RESUME_PAGE_SIZE || last === undefined) return result;
    after = last.eventId;
  }
  return continueAsNew<typeof resumeWorkflow>({ ...input, afterEventId: after, done: result });
}

async function wakeAll(waiting: Array<{ workflowId: string }>, result: ResumeWorkflowResult): Promise<void> {
  for (let i = 0; i < waiting.length; i += RESUME_SIGNALS_AT_ONCE) {
    const woken = await Promise.all(waiting.slice(i, i + RESUME_SIGNALS_AT_ONCE).map((d) => wake(d.workflowId)));
    for (const w of woken) result[w ? 'signalled' : 'ended']++;
  }
}

/** Signals the delivery's run; false when it cannot be: it has ended, or is over its signal limit (its hourly look wakes it). */
async function wake(workflowId: string): Promise<boolean> {
  try {
    await getExternalWorkflowHandle(workflowId).signal(resume);
    return true;
  } catch (err) {
    if (err instanceof ApplicationFailure) return false;
    throw err;
  }
}

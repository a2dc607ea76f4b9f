import { ApplicationFailure, continueAsNew, defineSignal, getExternalWorkflowHandle, proxyActivities } from '@temporalio/workflow';
import type { ResumeActivities } from '../activities/resume-activities';
import { RESUME_PAGE_SIZE, RESUME_PAGES_PER_RUN, RESUME_SIGNALS_AT_ONCE } from '../src/domain/webhooks/endpoint-pause';
import { BOOKKEEPING_ACTIVITY } from './activity-options';

/** What this workflow sends: the paused delivery makes its attempt again; a signal, kept if sent before the run waits. */
export const resume = defineSignal('resume');

export interface ResumeWorkflowInput {
  accountId: string;
  endpointId: string;
  /** Continues after this event (a run continued as new); absent: from the oldest. */
  afterEventId?: number;
  /** What the earlier runs of this resume did (a run continued as new). */
  done?: ResumeWorkflowResult;
}

export interface ResumeWorkflowResult {
  /** Deliveries told to make their attempt now. */
  signalled: number;
  /** Deliveries listed whose run had ended (nothing to wake). */
  ended: number;
}

const { pausedDeliveries } = proxyActivities<ResumeActivities>(BOOKKEEPING_ACTIVITY);

/** Signals `resume` to an endpoint's paused deliveries (once its flag is cleared), oldest first, a page at a time. */
export async function resumeWorkflow(input: ResumeWorkflowInput): Promise<ResumeWorkflowResult> {
  const result: ResumeWorkflowResult = { signalled: input.done?.signalled ?? 0, ended: input.done?.ended ?? 0 };
  let after = input.afterEventId;
  for (let page = 0; page < RESUME_PAGES_PER_RUN; page++) {
    const waiting = await pausedDeliveries({ endpointId: input.endpointId, ...(after !== undefined ? { afterEventId: after } : {}), limit: RESUME_PAGE_SIZE });
    for (let i = 0; i < waiting.length; i += RESUME_SIGNALS_AT_ONCE) {
      const woken = await Promise.all(waiting.slice(i, i + RESUME_SIGNALS_AT_ONCE).map((d) => wake(d.workflowId)));
      for (const w of woken) result[w ? 'signalled' : 'ended']++;
    }
    const last = waiting[waiting.length - 1];
    if (waiting.length < RESUME_PAGE_SIZE || last === undefined) return result;
    after = last.eventId;
  }
  // Each signal adds two events to this history: a long list goes on in a new run.
  return continueAsNew<typeof resumeWorkflow>({ ...input, afterEventId: after, done: result });
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

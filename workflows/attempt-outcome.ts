import { defineUpdate } from '@temporalio/workflow';
import type { ReportedOutcome } from '../activities/attempt-hand-off';

/**
 * What the process that made a handed-off first attempt tells its run once the POST has ended and
 * been recorded. An update rather than a signal: Temporal hands it to the worker in a speculative
 * workflow task, kept in memory, and writes it once, with that task's completion (which also ends the
 * run on a success), so a handed-off attempt costs two writes instead of the four a signal costs.
 * The run rejects, in its validator, an update it is not waiting for (nothing is written then).
 */
export const attemptOutcome = defineUpdate<void, [ReportedOutcome]>('attemptOutcome');

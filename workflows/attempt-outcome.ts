import { defineUpdate } from '@temporalio/workflow';
import type { ReportedOutcome } from '../activities/attempt-hand-off';

/**
 * What the process that made a handed-off first attempt tells its run once the POST is recorded.
 * An update rather than a signal: Temporal runs it in a speculative workflow task and writes it with
 * that task's completion, two writes instead of a signal's four. A rejected update writes nothing.
 */
export const attemptOutcome = defineUpdate<void, [ReportedOutcome]>('attemptOutcome');

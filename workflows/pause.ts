import { defineSignal } from '@temporalio/workflow';

/**
 * From the endpoint's resume workflow (workflows/resume.ts): the paused delivery makes the same attempt again. A signal,
 * not an update: the sender need not know whether the run waits yet; the run keeps one sent while its attempt is in flight.
 */
export const resume = defineSignal('resume');

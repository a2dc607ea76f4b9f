import { defineSignal } from '@temporalio/workflow';

/**
 * Wakes a delivery that waits because its endpoint is paused (sent by the endpoint's resume
 * workflow, workflows/resume.ts): it makes the same attempt again. A signal rather than an update:
 * the sender need not know whether the run waits yet, and the run keeps one that comes while its
 * paused attempt is still in flight.
 */
export const resume = defineSignal('resume');
